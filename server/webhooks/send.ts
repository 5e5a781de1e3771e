// One delivery attempt: the Standard Webhooks headers and signature, POSTed through the SSRF-safe client, which
// vets the receiver's address again at send time (DNS may have changed since registration). Redirects are not
// followed: a receiver must answer 2xx itself.
import { AppError } from "../errors";
import { safeFetch } from "../net";
import { deliveryTimeoutMs } from "./config";
import { signPayload } from "./signing";

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** Fixed top-level order; the stored JSON (jsonb) does not keep key order, and receivers read it more easily. */
export function deliveryBody(payload: unknown): string {
  const p = (payload ?? {}) as Record<string, unknown>;
  const { type, request_id, workspace_id, created_at, data, ...rest } = p;
  return JSON.stringify({ type, request_id, workspace_id, created_at, data, ...rest });
}

export async function sendDelivery(a: {
  url: string;
  secret: string;
  msgId: string;
  body: string;
}): Promise<AttemptResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "service-webhooks/1",
    "webhook-id": a.msgId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signPayload(a.secret, a.msgId, timestamp, a.body),
  };
  try {
    const res = await safeFetch(a.url, {
      method: "POST",
      headers,
      body: a.body,
      maxRedirects: 0,
      timeoutMs: deliveryTimeoutMs(),
      maxBytes: 16_384,
    });
    if (res.outcome === "ok" && res.status !== null && res.status >= 200 && res.status < 300)
      return { ok: true, status: res.status, error: null };
    if (res.error) return { ok: false, status: res.status, error: `${res.error.kind}: ${res.error.message}` };
    if (res.outcome === "too_many_redirects" || res.outcome === "blocked_redirect") {
      return {
        ok: false,
        status: res.status,
        error: `receiver answered HTTP ${res.status} (redirects are not followed)`,
      };
    }
    return { ok: false, status: res.status, error: `receiver answered HTTP ${res.status}` };
  } catch (err) {
    // TARGET_FORBIDDEN: the receiver's name now resolves to a refused address; retried, DNS may change back.
    return {
      ok: false,
      status: null,
      error: err instanceof AppError ? `${err.appCode}: ${err.message}` : "request failed",
    };
  }
}
