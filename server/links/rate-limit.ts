// Creation limits of protected links (spec Limits 7: their own limits, no lookup units). Keyed callers share one
// bucket per workspace; anonymous callers get one per client address, or a single shared bucket when the address
// is unknown. The address follows the one rule of server/http/origin.ts: X-Forwarded-For counts only behind the
// proxies SERVICE_TRUST_PROXY declares, so a caller cannot get a fresh bucket per forged header.
import { AppError } from "../errors";
import { consumeRateLimit } from "../ratelimit/ratelimit";
import { anonymousCreateLimit, createWindowSeconds, workspaceCreateLimit } from "./config";
import type { LinkScope } from "./links";

export async function assertLinkCreationAllowedOrThrow(scope: LinkScope, clientIp: string | null): Promise<void> {
  const bucket =
    scope.kind === "workspace" ? `links.create:ws:${scope.workspaceId}` : `links.create:anon:${clientIp ?? "unknown"}`;
  const limit = scope.kind === "workspace" ? workspaceCreateLimit() : anonymousCreateLimit();
  const verdict = await consumeRateLimit({ bucket, limit, windowSeconds: createWindowSeconds() });
  if (!verdict.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      `Too many links created; at most ${limit} per ${createWindowSeconds()} s. Retry in ${verdict.retryAfterSeconds} s.`,
      {
        headers: { "Retry-After": String(verdict.retryAfterSeconds) },
      },
    );
  }
}
