// Bulk jobs, for the dashboard and /v1 alike: estimate, create (one atomic reservation), read with progress and
// paged results, list, cancel with refund, CSV export. Items run in the background (server/bulk/worker.ts).
import { router } from "../../trpc";
import { estimateProcedure } from "./estimate";
import { createProcedure } from "./create";
import { listProcedure } from "./list";
import { getProcedure } from "./get";
import { resultsCsvProcedure } from "./results-csv";
import { cancelProcedure } from "./cancel";

export const jobsRouter = router({
  estimate: estimateProcedure,
  create: createProcedure,
  list: listProcedure,
  get: getProcedure,
  resultsCsv: resultsCsvProcedure,
  cancel: cancelProcedure,
});
