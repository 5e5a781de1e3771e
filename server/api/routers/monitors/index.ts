// Monitors over REST (/v1/monitors...) and the dashboard: capability `full` like lists (403 CAPABILITY_REQUIRED on
// Free and Email); the plan's monitor limit and shortest interval apply. The work is in server/monitors; this file
// only declares the doors.
import { router } from "../../trpc";
import { alertsProcedure } from "./alerts";
import { createProcedure } from "./create";
import { deleteProcedure } from "./delete";
import { estimateProcedure } from "./estimate";
import { getProcedure } from "./get";
import { listProcedure } from "./list";
import { runProcedure } from "./run";
import { runsProcedure } from "./runs";
import { unsubscribeOneClickProcedure, unsubscribeProcedure } from "./unsubscribe";
import { updateProcedure } from "./update";

export const monitorsRouter = router({
  list: listProcedure,
  create: createProcedure,
  get: getProcedure,
  update: updateProcedure,
  delete: deleteProcedure,
  run: runProcedure,
  runs: runsProcedure,
  alerts: alertsProcedure,
  unsubscribe: unsubscribeProcedure,
  unsubscribeOneClick: unsubscribeOneClickProcedure,
  estimate: estimateProcedure,
});
