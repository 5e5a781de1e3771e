import { procedureFieldLimit } from "../_components/procedure-cost";
import { VulnerabilitiesView } from "./VulnerabilitiesView";
import "./vulnerabilities.css";

export const metadata = { title: "Vulnerabilities · Dashboard" };
export const dynamic = "force-dynamic";

export default function VulnerabilitiesPage() {
  // The scan's own limit on a lockfile, from the procedure's meta: the page takes what the API takes.
  const scanMaxBytes = procedureFieldLimit("vulnerabilities.scan");
  if (scanMaxBytes === null) throw new Error("vulnerabilities.scan declares no raw-body limit");
  return (
    <>
      <h1>Vulnerabilities</h1>
      <p className="muted small">
        Package reports for npm, PyPI, Maven, Go and Composer, CVE lookups, the known-exploited catalog and lockfile
        scans, through the same procedures as the <code>/v1/vulnerabilities</code> API. Each lookup, and each further
        page of results, costs 1 lookup unit from this workspace&apos;s monthly allowance, even when a source fails or
        the package is not found; a lockfile scan costs 1 unit per package version in the file, shown before it runs.
      </p>
      <VulnerabilitiesView scanMaxBytes={scanMaxBytes} />
      <p className="attribution small muted">
        Advisories from <a href="https://osv.dev">OSV.dev</a> and the npm registry&apos;s advisory endpoint.
        Known-exploited data: Cybersecurity and Infrastructure Security Agency (CISA),{" "}
        <a href="https://www.cisa.gov/known-exploited-vulnerabilities-catalog">
          Known Exploited Vulnerabilities Catalog
        </a>{" "}
        (public domain).
      </p>
    </>
  );
}
