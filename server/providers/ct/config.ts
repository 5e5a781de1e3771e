// Certificate-transparency search source (a crt.sh-compatible JSON API), read at call time.
import { setting } from "../../env";

/** SERVICE_CT_URL: base URL of a crt.sh-compatible search ("{base}/?q=%25.example.com&output=json"). */
export function ctBaseUrl(): string {
  return setting("SERVICE_CT_URL").replace(/\/+$/, "");
}

/**
 * SERVICE_CT_TIMEOUT_MS: the longest wait for the CT source (name resolution included), 5 s by default like every
 * upstream of a lookup: after it the retained answer is served, or 503 with Retry-After.
 */
export const ctTimeoutMs = () => setting("SERVICE_CT_TIMEOUT_MS");

/** SERVICE_CT_MAX_BYTES: a larger answer is treated as unavailable rather than exhausting memory. */
export const ctMaxBytes = () => setting("SERVICE_CT_MAX_BYTES");
