// Vulnerability evidence: package reports (npm compatibility route and the multi-ecosystem route), CVE lookups
// and the known-exploited catalog. The `vulnerabilities` capability (every plan), 1 unit each; malformed input is
// rejected by the zod schemas before any unit is reserved.
import { router } from "../../trpc";
import { npmReportProcedure } from "./npm-report";
import { packageReportProcedure } from "./package-report";
import { cveProcedure } from "./cve";
import { kevProcedure } from "./kev";

export const vulnerabilitiesRouter = router({
  npmReport: npmReportProcedure,
  packageReport: packageReportProcedure,
  cve: cveProcedure,
  kev: kevProcedure,
});
