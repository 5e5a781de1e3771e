// The answer of GET /go/{slug}: a redirect only ever to a destination we stored and that still passes our URL
// rules (so a row written by other means can never make this an open redirect), else 404 or 410.
import { getDb } from "../db/client";
import { followLink } from "./links";
import { parseDestination } from "./normalize";
import { SLUG_PATTERN } from "./slug";
import { visitorPage } from "./visitor-page";
import { recordBlockedVisit } from "./visit-events";

const HEADERS = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };

const MESSAGES = {
  NOT_FOUND: "No such link.",
  LINK_EXPIRED: "This link has expired.",
  LINK_DISABLED: "This link has been disabled.",
} as const;

function refusal(status: 404 | 410, code: keyof typeof MESSAGES, req: Request): Response {
  const message = MESSAGES[code];
  const wantsHtml = /\btext\/html\b/i.test(req.headers.get("accept") ?? "");
  if (wantsHtml) {
    return new Response(visitorPage(code), {
      status,
      headers: { ...HEADERS, "Content-Type": "text/html; charset=utf-8" },
    });
  }
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { ...HEADERS, "Content-Type": "application/json; charset=utf-8" },
  });
}

export async function answerLinkRequest(req: Request, slug: string): Promise<Response> {
  if (!SLUG_PATTERN.test(slug)) return refusal(404, "NOT_FOUND", req);
  const outcome = await followLink(await getDb(), slug);
  if (outcome.kind === "not_found") return refusal(404, "NOT_FOUND", req);
  if (outcome.kind === "gone") {
    await recordBlockedVisit(outcome.link, outcome.reason, req);
    return refusal(410, outcome.reason === "disabled" ? "LINK_DISABLED" : "LINK_EXPIRED", req);
  }
  const d = parseDestination(outcome.url);
  if ("error" in d) {
    await recordBlockedVisit(outcome.link, "destination_refused", req);
    return refusal(404, "NOT_FOUND", req);
  }
  return new Response(null, { status: 302, headers: { ...HEADERS, Location: d.url } });
}
