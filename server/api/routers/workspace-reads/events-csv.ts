// GET /events.csv: investigation events as CSV.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { eventsToCsv } from "../../../events/csv";
import { searchEvents } from "../../../events/events";
import { withUntilAfterSince } from "../../../timestamps";
import { workspaceProcedure } from "../../trpc";
import { eventQuery, eventSearchTerms, eventType, since, until } from "./shared";

export const eventsCsvProcedure = workspaceProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/events.csv",
      tags: ["Workspace"],
      summary: "Investigation events as CSV",
      description:
        "The same events as GET /events as a CSV file (media type text/csv; columns id, created_at, request_id, type, actor, ip, email, domain, rule, data), newest first, at most 10,000 rows, optionally filtered by `query`, `type`, `since` and `until` (as in GET /events; `type=audit.` exports the audit trail). Cells that a spreadsheet would read as a formula are prefixed with an apostrophe.",
    },
    produces: "text/csv",
  })
  .input(withUntilAfterSince(z.object({ query: eventQuery, type: eventType, since, until })))
  .output(z.string())
  .query(async ({ ctx, input }) => {
    const page = await searchEvents(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      ...(await eventSearchTerms(ctx.db, ctx.principal.workspaceId, input.query)),
      type: input.type,
      since: input.since,
      until: input.until,
      limit: 10_000,
    });
    ctx.resHeaders.set("Content-Type", "text/csv; charset=utf-8");
    ctx.resHeaders.set("Content-Disposition", 'attachment; filename="events.csv"');
    return eventsToCsv(page.items);
  });
