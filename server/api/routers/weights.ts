// Signal weights: the defaults beside weights learned from the workspace's outcome labels, and the switch between
// them. Unmetered, like rules, and on the same plans (capability `full`: the plans that can call /assess).
import { z } from "zod";
import { AppError } from "../../errors";
import { setWeightsModeOrThrow, weightsOverview } from "../../weights/weights";
import { POINTS_PER_LOG_ODDS } from "../../weights/fit";
import { actorOf } from "../actor";
import { authenticated, router } from "../trpc";

const TAGS = ["Assessment"];
const weightsProcedure = authenticated.meta({ requires: { capability: "full", subject: "Signal weights need" } });

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

const MAPPING = `Learned weights come from an L2-regularised logistic regression of the workspace's outcome labels (every label but \`legitimate\` counts as fraud) on the signal codes its assessments recorded, pulled towards each code's default weight so a code with few labels stays near it. Coefficients are log-odds, mapped to points at ${POINTS_PER_LOG_ODDS.toFixed(1)} points per unit (50 / ln 10: a signal that multiplies the odds of fraud tenfold adds 50 points; signals that make fraud less likely get negative points), rounded and kept within ±100; the base rate of fraud is not scored, so a request without signals still scores 0. One learned weight per code applies to every event, and a signal from a stale list still counts half or a quarter of it.`;

const signalRow = z.object({
  code: z.string().describe("The signal code, as in an assessment's `signals`"),
  default_weight: z
    .number()
    .int()
    .nullable()
    .describe(
      "The default weight (for codes weighed outside the default table, the weight most often recorded while this workspace used the defaults); null when unknown",
    ),
  learned_weight: z
    .number()
    .int()
    .nullable()
    .describe("The weight a fit of the current labels gives; null under the minimum"),
  weight_in_use: z
    .number()
    .int()
    .nullable()
    .describe(
      "The weight /assess uses now: the learned snapshot's when `weights` is learned and it has one, else the default",
    ),
  labels: z.number().int().describe("Labelled assessments that recorded this signal"),
  fraud: z.number().int().describe("Of those, labelled fraud (any label but legitimate)"),
  legitimate: z.number().int().describe("Of those, labelled legitimate"),
});

const overviewSchema = z.object({
  weights: z.enum(["default", "learned"]).describe("The weight set /assess uses for this workspace"),
  labelled: z
    .object({ total: z.number().int(), fraud: z.number().int(), legitimate: z.number().int() })
    .describe("Labelled assessments (the newest label of each)"),
  minimum: z.object({
    labels: z.number().int().describe("Labelled assessments needed before learned weights can be used"),
    met: z.boolean(),
    message: z.string().nullable().describe("Why learned weights cannot be used yet, or null"),
  }),
  fitted_at: z.string().nullable().describe("When the learned weights in use were fitted; null with the defaults"),
  signals: z.array(signalRow).describe("Every known signal code, alphabetically"),
});

export const weightsRouter = router({
  get: weightsProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/weights",
        tags: TAGS,
        summary: "Signal weights: default and learned",
        description: `Which weights score this workspace's assessments (\`weights\`), and per signal code the default weight, the weight a fit of the workspace's current labels gives, the weight in use and the labels behind it. Labels are set with POST /assess/{request_id}/outcome; only this workspace's labels count. Learned weights need a minimum of labelled assessments (\`minimum.labels\`: SERVICE_LEARNED_WEIGHTS_MIN_LABELS, default 50) with both fraud and legitimate among them; below that \`learned_weight\` is null and \`minimum.message\` says what is missing. ${MAPPING}`,
      },
    })
    .input(z.object({}))
    .output(overviewSchema)
    .query(({ ctx }) => weightsOverview(ctx.db, ctx.principal.workspaceId)),

  setMode: switchProcedure
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
    ),
});
