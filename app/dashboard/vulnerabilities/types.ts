// The answers of the vulnerability procedures, inferred from the router so the page follows the API's contract.
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["vulnerabilities"];
type Inputs = inferRouterInputs<AppRouter>["vulnerabilities"];

export type PackageReport = Outputs["packageReport"];
export type PackageAdvisory = PackageReport["advisories"][number];
export type PackageReportInput = Inputs["packageReport"];
export type CveReport = Outputs["cve"];
export type KevSearch = Outputs["kev"];
export type KevSearchInput = Inputs["kev"];
export type ScanPreview = Outputs["scanPreview"];
export type Severity = PackageAdvisory["severity"];

export const SEVERITIES = ["critical", "high", "moderate", "low", "unknown"] as const;

export const ECOSYSTEM_CHOICES = [
  { value: "npm", label: "npm", placeholder: "@babel/core", hint: "package name; scoped names as @scope/name" },
  { value: "pypi", label: "PyPI", placeholder: "jinja2", hint: "project name" },
  { value: "maven", label: "Maven", placeholder: "org.apache.logging.log4j:log4j-core", hint: "group:artifact" },
  { value: "go", label: "Go", placeholder: "github.com/gin-gonic/gin", hint: "module path" },
  { value: "composer", label: "Composer", placeholder: "craftcms/cms", hint: "vendor/package" },
] as const satisfies ReadonlyArray<{
  value: PackageReportInput["ecosystem"];
  label: string;
  placeholder: string;
  hint: string;
}>;

/**
 * What a lookup came to: its data, or the error as the tRPC client raised it (shown by ErrorNote). `units`: what the
 * workspace's usage moved by across the call, when it was measured (useMeteredLookup), so a failure can say what it
 * cost from the meter instead of guessing.
 */
export type Outcome<T> = ({ ok: true; data: T } | { ok: false; error: unknown }) & { units?: number };
