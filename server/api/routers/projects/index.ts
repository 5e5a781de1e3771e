// Projects over REST (/v1/projects...) and the dashboard: the scan history that POST /vulnerabilities/scan?project=
// keeps. Reads are unmetered; every query is the caller's workspace's. The work is in server/projects.
import { router } from "../../trpc";
import { deleteProcedure } from "./delete";
import { getProcedure } from "./get";
import { listProcedure } from "./list";
import { scanProcedure } from "./scan";
import { scansProcedure } from "./scans";

export const projectsRouter = router({
  list: listProcedure,
  get: getProcedure,
  scans: scansProcedure,
  scan: scanProcedure,
  delete: deleteProcedure,
});
