// Certificate-transparency search source (a crt.sh-compatible JSON API), read at call time.
import { numberSetting } from "../../config/settings";

/** SERVICE_CT_URL: base URL of a crt.sh-compatible search ("{base}/?q=%25.example.com&output=json"). */
export function ctBaseUrl(): string {
  return (process.env.SERVICE_CT_URL?.trim() || "https://crt.sh").replace(/\/+$/, "");
}

const int = (name: string, fallback: number) => numberSetting(name, fallback, { min: 1 });

/** SERVICE_CT_TIMEOUT_MS: the public crt.sh is slow for popular domains; bounded so an answer still comes. */
export const ctTimeoutMs = () => int("SERVICE_CT_TIMEOUT_MS", 20_000);

/** SERVICE_CT_MAX_BYTES: a larger answer is treated as unavailable rather than exhausting memory. */
export const ctMaxBytes = () => int("SERVICE_CT_MAX_BYTES", 64 * 1024 * 1024);
