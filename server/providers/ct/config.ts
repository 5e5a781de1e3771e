// Certificate-transparency search source (a crt.sh-compatible JSON API), read at call time.
import { numberSetting, upstreamTimeoutMs } from "../../env";

/** SERVICE_CT_URL: base URL of a crt.sh-compatible search ("{base}/?q=%25.example.com&output=json"). */
export function ctBaseUrl(): string {
  return (process.env.SERVICE_CT_URL?.trim() || "https://crt.sh").replace(/\/+$/, "");
}

const int = (name: string, fallback: number) => numberSetting(name, fallback, { min: 1 });

/**
 * SERVICE_CT_TIMEOUT_MS: the longest wait for the CT source (name resolution included), 5 s by default like every
 * upstream of a lookup: after it the retained answer is served, or 503 with Retry-After.
 */
export const ctTimeoutMs = () => int("SERVICE_CT_TIMEOUT_MS", upstreamTimeoutMs());

/** SERVICE_CT_MAX_BYTES: a larger answer is treated as unavailable rather than exhausting memory. */
export const ctMaxBytes = () => int("SERVICE_CT_MAX_BYTES", 64 * 1024 * 1024);
