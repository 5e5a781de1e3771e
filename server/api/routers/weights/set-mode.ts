// POST /weights/mode: switch between default and learned signal weights.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { AppError } from "../../../errors";
import { setWeightsModeOrThrow } from "../../../weights/weights";
import { actorOf } from "../../actor";
import { TAGS, weightsProcedure, MAPPING, overviewSchema } from "./shared";

/**
 * Switching changes how every later assessment of the workspace is scored, so it is a workspace administration act:
 * an API key is the workspace's own credential (it may already create rules that override decisions) and may switch;
 * in the dashboard only an owner may, as for keys and members. A member may read the weights but not switch them.
 */
const switchProcedure = weightsProcedure.use(({ ctx, next }) => {
  if (ctx.principal.kind === "member" && ctx.principal.role !== "owner")
    throw new AppError("FORBIDDEN", "Only workspace owners can switch the signal weights.");
  return next();
});

export const setModeProcedure = switchProcedure
  .meta({
    errors: ["FORBIDDEN", "CONFLICT"],
    openapi: {
      method: "POST",
      path: "/weights/mode",
      tags: TAGS,
      summary: "Switch between default and learned signal weights",
      description: `\`learned\` fits the workspace's labels now and scores every later assessment with that snapshot (switch to \`learned\` again to refit with newer labels); \`default\` goes back to the default table. Under the minimum of labelled assessments the switch to \`learned\` is 409 CONFLICT with what is missing, and the defaults stay. Each switch is an audit event (\`audit.weights.mode_changed\`, with the weights fitted). Answers as GET /weights. ${MAPPING}`,
    },
    who: "key-or-owner",
  })
  .input(z.object({ mode: z.enum(["default", "learned"]).describe("The weight set to score with") }))
  .output(overviewSchema)
  .mutation(({ ctx, input }) =>
    setWeightsModeOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      mode: input.mode,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
    }),
  );
