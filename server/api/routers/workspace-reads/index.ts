// The workspace-reads router: its procedures, one file each.
import { router } from "../../trpc";
import { eventsProcedure } from "./events";
import { eventsCsvProcedure } from "./events-csv";
import { analyticsSummaryProcedure } from "./analytics-summary";
import { analyticsTimeseriesProcedure } from "./analytics-timeseries";
import { lookupHistoryProcedure } from "./lookup-history";

export const workspaceReadsRouter = router({
  events: eventsProcedure,
  eventsCsv: eventsCsvProcedure,
  analyticsSummary: analyticsSummaryProcedure,
  analyticsTimeseries: analyticsTimeseriesProcedure,
  lookupHistory: lookupHistoryProcedure,
});
