// The review queue over REST (/v1/cases...) and the dashboard: unmetered, capability `full` like rules and lists
// (403 CAPABILITY_REQUIRED on Free). The work is in server/cases; this file only declares the doors.
import { z } from "zod";
import { assignCaseOrThrow, getCaseOrThrow, listCases, resolveCaseOrThrow } from "../../cases/cases";
import {
  caseAssignSchema,
  caseDetailSchema,
  caseIdSchema,
  caseListInputSchema,
  casePageSchema,
  caseRecordSchema,
  caseResolveSchema,
} from "../../cases/schemas";
import { actorOf } from "../actor";
import { authenticated, router } from "../trpc";

const casesProcedure = authenticated.meta({
  requires: { capability: "full", subject: "The review queue needs" },
  freeText: ["note"],
});

const TAGS = ["Cases"];
const ABOUT =
  "Every assessment whose final decision is `review` or `challenge` opens a case in the assessment's own write.";
const ONE_CASE = `${ABOUT} Another workspace's case is 404 NOT_FOUND.`;

export const casesRouter = router({
  list: casesProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/cases",
        tags: TAGS,
        summary: "List review cases",
        description: `The review queue: open cases oldest first (\`status=resolved\`: resolved ones newest first), filtered by \`decision\`, \`rule\` and \`min_age_minutes\`; paginate with \`limit\` and \`cursor\` (the previous page's \`next_cursor\`). \`counts\` gives the open cases and the age of the oldest whatever the filters. ${ABOUT}`,
      },
    })
    .input(caseListInputSchema)
    .output(casePageSchema)
    .query(({ ctx, input }) => listCases(ctx.db, ctx.principal.workspaceId, input)),

  get: casesProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/cases/{id}",
        tags: TAGS,
        summary: "Read a review case",
        description: `The case with the assessment that opened it (its signals, rules and the facts the rules saw, the account's baseline included), the account's recent assessments, and other cases of the same account, IP address or device. ${ONE_CASE}`,
      },
    })
    .input(z.object({ id: caseIdSchema }))
    .output(caseDetailSchema)
    .query(({ ctx, input }) => getCaseOrThrow(ctx.db, ctx.principal.workspaceId, input.id)),

  assign: casesProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "POST",
        path: "/cases/{id}/assign",
        tags: TAGS,
        summary: "Assign a review case",
        description:
          'Body: `assignee`: a member\'s user id, `"me"` (the signed-in member; an API key is refused), or null to unassign. A user who is not a member of the workspace is 400 INVALID_REQUEST.',
      },
    })
    .input(caseAssignSchema)
    .output(caseRecordSchema)
    .mutation(({ ctx, input }) =>
      assignCaseOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        requestId: ctx.requestId,
        actor: actorOf(ctx),
        id: input.id,
        assignee: input.assignee,
      }),
    ),

  resolve: casesProcedure
    .meta({
      errors: ["NOT_FOUND", "CONFLICT"],
      openapi: {
        method: "POST",
        path: "/cases/{id}/resolve",
        tags: TAGS,
        summary: "Resolve a review case",
        description:
          "Body: `resolution` (`fraud` or `legitimate`), optional `note`, optional `add_to_list` { `list_id`, `value`: `user`, `email`, `device` or `ip`, `expires_at`? } to add that value of the case to a named list of the matching kind (an email may go into an email_domain list as its domain). Resolving labels the assessment's outcome (POST /assess/{request_id}/outcome: what backtests and learned weights read), is an audit event (`audit.case.resolved`), and queues a `case.resolved` webhook. A case already resolved is 409 CONFLICT; a list of another kind or a value the case lacks is 400 INVALID_REQUEST, before anything is written.",
      },
    })
    .input(caseResolveSchema)
    .output(caseRecordSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...rest } = input;
      return resolveCaseOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        requestId: ctx.requestId,
        actor: actorOf(ctx),
        id,
        ...rest,
      });
    }),
});
