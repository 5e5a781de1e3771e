// GET /cases/{id}: read a review case.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getCaseOrThrow } from "../../../cases/cases";
import { caseDetailSchema, caseIdSchema } from "../../../cases/schemas";
import { casesProcedure, TAGS, ABOUT } from "./shared";

const ONE_CASE = `${ABOUT} Another workspace's case is 404 NOT_FOUND.`;

export const getProcedure = casesProcedure
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
  .query(({ ctx, input }) => getCaseOrThrow(ctx.db, ctx.principal.workspaceId, input.id));
