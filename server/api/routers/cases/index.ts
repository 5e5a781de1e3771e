// The review queue over REST (/v1/cases...) and the dashboard: unmetered, capability `full` like rules and lists
// (403 CAPABILITY_REQUIRED on Free). The work is in server/cases; this file only declares the doors.
import { router } from "../../trpc";
import { listProcedure } from "./list";
import { getProcedure } from "./get";
import { assignProcedure } from "./assign";
import { resolveProcedure } from "./resolve";

export const casesRouter = router({
  list: listProcedure,
  get: getProcedure,
  assign: assignProcedure,
  resolve: resolveProcedure,
});
