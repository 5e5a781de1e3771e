// Investigation event of a refused visit to a workspace's protected link (`link.visit_blocked`): the link was
// disabled or has expired, or its stored destination no longer passes our URL rules. A visit is not an account
// action and anyone can make one, so at most one event per link and minute is written: a link hammered by a bot
// cannot flood the workspace's events (the first visit of each minute says who came).
import { getDb } from "../db/client";
import { recordEvent } from "../events/events";
import { requestIdOf } from "../ids";
import { consumeRateLimit } from "../ratelimit/ratelimit";
import { clientAddress } from "../http/origin";
import type { VisitedLink } from "./links";
import { logger } from "../operate/log";

export type BlockedReason = "disabled" | "expired" | "destination_refused";

export async function recordBlockedVisit(link: VisitedLink, reason: BlockedReason, req: Request): Promise<void> {
  if (!link.workspaceId) return; // anonymous links belong to no workspace, so there is nobody to tell
  try {
    const first = await consumeRateLimit({ bucket: `link-visit-blocked:${link.id}`, limit: 1, windowSeconds: 60 });
    if (!first.allowed) return;
    let host: string | null = null;
    try {
      host = new URL(link.destination).hostname;
    } catch {
      // a destination that does not parse is exactly the destination_refused case: no domain to index
    }
    await recordEvent(await getDb(), {
      workspaceId: link.workspaceId,
      // The id the visitor's answer carries as X-Request-Id (proxy.ts), so the two correlate.
      requestId: requestIdOf(req),
      type: "link.visit_blocked",
      ip: clientAddress(req.headers),
      domain: host,
      data: {
        link_id: link.id,
        slug: link.slug,
        reason,
        url: link.destination,
        user_agent: req.headers.get("user-agent")?.slice(0, 300) ?? null,
        referer: req.headers.get("referer")?.slice(0, 500) ?? null,
      },
    });
  } catch (err) {
    // The refusal is answered either way; a failed record must not turn it into an error page.
    logger().error({ err, component: "links" }, "link.visit_blocked event failed");
  }
}
