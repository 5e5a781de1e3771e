// The vulnerability evidence area: package reports, CVE lookups and the known-exploited catalog.
export { getNpmReportOrThrow, type NpmReport } from "./npm-report";
export { getPackageReportOrThrow, type PackageReport, type PackageReportInput } from "./package-report";
export { getCveOrThrow, type CveReport } from "./cve";
export { searchKev, kevCatalogInfo, findKevEntry, type KevSearchInput, type KevSearchResult } from "./kev-catalog";
export { kevFeed, VULNERABILITY_FEEDS } from "./kev-feed";
export { coordinateProblem, CVE_ID_PATTERN } from "./coordinates";
export { ECOSYSTEMS, type Ecosystem } from "./versions";
