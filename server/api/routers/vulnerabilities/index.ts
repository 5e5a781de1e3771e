// Vulnerability evidence: package reports (npm compatibility route and the multi-ecosystem route), CVE lookups,
// the known-exploited catalog and the dependency scan of a whole lockfile. The `vulnerabilities` capability (every
// plan), 1 unit each (the scan: 1 per package version); malformed input is rejected by the zod schemas before any
// unit is reserved.
import { router } from "../../trpc";
import { npmReportProcedure } from "./npm-report";
import { packageReportProcedure } from "./package-report";
import { cveProcedure } from "./cve";
import { kevProcedure } from "./kev";
import { scanProcedure } from "./scan";
import { scanPreviewProcedure } from "./scan-preview";

export const vulnerabilitiesRouter = router({
  npmReport: npmReportProcedure,
  packageReport: packageReportProcedure,
  cve: cveProcedure,
  kev: kevProcedure,
  scan: scanProcedure,
  scanPreview: scanPreviewProcedure,
});
