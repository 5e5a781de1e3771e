// GET /scans/leaderboard: leaderboard of public scans.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getLeaderboard } from "../../../site-scans/public";
import { leaderboardSchema } from "../../../site-scans/schemas";
import { optionalKeyProcedure } from "./shared";

export const leaderboardProcedure = optionalKeyProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/scans/leaderboard",
      tags: ["Scans"],
      summary: "Leaderboard of public scans",
      description:
        "The best graded and the most improved public scans of the last 30 days, one entry per host (its latest public scan; improvement is against its earliest public scan in the window). Private and unlisted scans never appear.",
      protect: false,
    },
  })
  .input(z.object({}).optional())
  .output(leaderboardSchema)
  .query(({ ctx }) => getLeaderboard(ctx.db));
