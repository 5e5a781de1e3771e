// What several procedures of the weights router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { POINTS_PER_LOG_ODDS } from "../../../weights/fit";
import { authenticated } from "../../trpc";

export const TAGS = ["Assessment"];

export const weightsProcedure = authenticated.meta({
  requires: { capability: "full", subject: "Signal weights need" },
});

export const MAPPING = `Learned weights come from an L2-regularised logistic regression of the workspace's outcome labels (every label but \`legitimate\` counts as fraud) on the signal codes its assessments recorded, pulled towards each code's default weight so a code with few labels stays near it. Coefficients are log-odds, mapped to points at ${POINTS_PER_LOG_ODDS.toFixed(1)} points per unit (50 / ln 10: a signal that multiplies the odds of fraud tenfold adds 50 points; signals that make fraud less likely get negative points), rounded and kept within ±100; the base rate of fraud is not scored, so a request without signals still scores 0. One learned weight per code applies to every event, and a signal from a stale list still counts half or a quarter of it.`;

export const signalRow = z.object({
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

export const overviewSchema = z.object({
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
