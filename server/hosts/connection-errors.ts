// Connection failures as answers (the host was asked about, and this is what happened), never as 500s.
import { requestTimeoutMs } from "../net/config";

export type ConnectionError = { kind: "dns" | "connect" | "tls" | "timeout" | "protocol"; message: string };

export function errorOf(err: unknown): ConnectionError {
  const e = err as NodeJS.ErrnoException;
  const code = e?.code ?? "";
  if (code === "ETIMEDOUT" || code === "ABORT_ERR" || e?.name === "TimeoutError")
    return { kind: "timeout", message: e.message || "timed out" };
  if (["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EPIPE"].includes(code)) {
    return { kind: "connect", message: `Connection failed (${code}).` };
  }
  if (/^(ERR_SSL|ERR_TLS|ERR_OSSL)/.test(code) || /ssl|tls|handshake/i.test(e?.message ?? "")) {
    return { kind: "tls", message: `TLS handshake failed: ${e.message}` };
  }
  return { kind: "protocol", message: e?.message ? `Connection failed: ${e.message}` : "Connection failed." };
}

/** A single host check is bounded by the same setting as any outbound request (SERVICE_TARGET_TIMEOUT_MS). */
export const hostTimeoutMs = () => requestTimeoutMs();
