// GET /weights: signal weights: default and learned.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { weightsOverview } from "../../../weights/weights";
import { TAGS, weightsProcedure, MAPPING, overviewSchema } from "./shared";

export const getProcedure = weightsProcedure
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
  .query(({ ctx }) => weightsOverview(ctx.db, ctx.principal.workspaceId));
