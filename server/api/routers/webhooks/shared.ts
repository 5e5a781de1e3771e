// What several procedures of the webhooks router share (schemas, helpers), or what other modules import from it.
import { authenticated } from "../../trpc";

/** Webhooks are unmetered but keep their plan check (spec Authentication 8): the webhooks entitlement. */
export const webhooksProcedure = authenticated
  .meta({ requires: { webhooks: true, subject: "Webhooks need" } })
  .use(({ ctx, next }) => {
    ctx.resHeaders.set("Cache-Control", "private, no-store");
    return next();
  });

export const TAGS = ["Webhooks"];
