// GET and POST /monitors/emails/unsubscribe?token=…: the unsubscribe link of a monitor's alert emails. No key: the
// signed token is the authority (it names one monitor and one recipient). POST is RFC 8058's one-click unsubscribe,
// which mail clients send from the `List-Unsubscribe-Post` header; GET is the link a person follows.
import { unsubscribeOrThrow } from "../../../monitors/mailer/unsubscribe";
import {
  unsubscribeInputSchema,
  unsubscribeOneClickInputSchema,
  unsubscribeOutputSchema,
} from "../../../monitors/schemas";
import { publicProcedure } from "../../trpc";
import { viewerWorkspace } from "../site-scans/shared";
import { TAGS } from "./shared";

/** No key needed; a key that is sent must still be active (401, 403 API_KEY_PAUSED), as on every key-optional route. */
const linkProcedure = publicProcedure.use(async ({ ctx, next }) => {
  await viewerWorkspace(ctx);
  return next();
});

const DESCRIPTION =
  "Stops alert emails of one monitor to one recipient, both named by the signed `token` of the email's unsubscribe link (the recipient's other monitors keep emailing). Following it twice is fine; a token that was changed, cut short or spelled otherwise (only the link's exact text is accepted) is 400 INVALID_REQUEST. The change is an audit event (`audit.monitor.unsubscribed`), and the monitor's `email_alerts.unsubscribed` lists the address.";

const meta = (method: "GET" | "POST") => ({
  openapi: {
    method,
    path: "/monitors/emails/unsubscribe" as const,
    tags: TAGS,
    summary:
      method === "GET" ? "Unsubscribe from a monitor's emails" : "Unsubscribe from a monitor's emails (one-click)",
    description:
      method === "GET" ? DESCRIPTION : `${DESCRIPTION} This is the RFC 8058 one-click form mail clients send.`,
    protect: false as const,
  },
});

export const unsubscribeProcedure = linkProcedure
  .meta(meta("GET"))
  .input(unsubscribeInputSchema)
  .output(unsubscribeOutputSchema)
  .query(({ ctx, input }) => unsubscribeOrThrow(ctx.db, input.token));

// The one-click body is `List-Unsubscribe=One-Click`, form-encoded: read as raw text beside the token of the URL.
export const unsubscribeOneClickProcedure = linkProcedure
  .meta({
    ...meta("POST"),
    rawBody: { field: "one_click", maxBytes: 1000, media: ["application/x-www-form-urlencoded", "text/plain"] },
  })
  .input(unsubscribeOneClickInputSchema)
  .output(unsubscribeOutputSchema)
  .mutation(({ ctx, input }) => unsubscribeOrThrow(ctx.db, input.token));
