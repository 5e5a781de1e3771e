// GET /projects/{name}/scans/{id}: one stored scan, as JSON, SARIF or CSV.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { projectScanAnswer } from "../../../projects/schemas";
import { getProjectScanOrThrow } from "../../../projects/store";
import { scanToCsv } from "../../../vulnerabilities/lockfile-scan/csv";
import { scanToSarif } from "../../../vulnerabilities/lockfile-scan/sarif";
import { preferredScanMediaType } from "../vulnerabilities/scan-media";
import { NAME_IN_PATH, nameParam, projectsProcedure, TAGS } from "./shared";

export const scanProcedure = projectsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    alsoProduces: ["application/sarif+json", "text/csv"],
    openapi: {
      method: "GET",
      path: "/projects/{name}/scans/{id}",
      tags: TAGS,
      summary: "Read a stored scan",
      description: `The scan's answer as it was given by POST /vulnerabilities/scan, with its \`diff\` and \`project\`. \`Accept: application/sarif+json\` answers the same SARIF 2.1.0 log the scan would have (located at the path the scan named), \`Accept: text/csv\` the same CSV. ${NAME_IN_PATH}`,
    },
  })
  .input(z.object({ ...nameParam, id: z.string().trim().min(1).max(100).describe("The scan's id (psc_...)") }))
  .output(z.union([projectScanAnswer, z.string()]))
  .query(async ({ ctx, input }) => {
    const { answer, path } = await getProjectScanOrThrow(ctx.db, ctx.principal.workspaceId, input.name, input.id);
    const media = preferredScanMediaType(ctx.requestHeaders.get("accept"));
    if (media === "application/json") return answer;
    ctx.resHeaders.set("Content-Type", `${media}; charset=utf-8`);
    if (media === "text/csv") {
      ctx.resHeaders.set("Content-Disposition", `attachment; filename="${input.id}.csv"`);
      return scanToCsv(answer);
    }
    return scanToSarif(answer, path);
  });
