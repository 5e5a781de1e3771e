// The verdict for the chosen version: affected or not, by which advisories and ranges, and the nearest fixed
// version of each. Counts come from the whole report; the rows from this page of advisories.
import { SeverityBadge } from "./SeveritySummary";
import type { PackageReport } from "./types";

function verdictWord(affected: boolean | null): { word: string; cls: string } {
  if (affected === true) return { word: "affected", cls: "bad" };
  if (affected === false) return { word: "not affected", cls: "good" };
  return { word: "undetermined", cls: "unknown" };
}

export function VerdictBadge({ affected }: { affected: boolean | null }) {
  const { word, cls } = verdictWord(affected);
  return <span className={`vuln-verdict vuln-verdict-${cls}`}>{word}</span>;
}

export function VersionVerdict({ report }: { report: PackageReport }) {
  const { version, summary } = report;
  const affecting = report.advisories.filter((a) => a.versionVerdict.affected === true);
  const undecided = report.advisories.filter((a) => a.versionVerdict.affected === null);
  const total = summary.affectingSelectedVersion.total;
  return (
    <section
      className={`card vuln-verdict-card vuln-verdict-card-${verdictWord(version.affected).cls}`}
      data-testid="version-verdict"
    >
      <h2>
        Version <code data-testid="selected-version">{version.selected}</code>{" "}
        <span data-testid="verdict">
          <VerdictBadge affected={version.affected} />
        </span>
      </h2>
      <p className="small muted">
        {version.requested === null ? "No version chosen: the registry's latest release. " : ""}
        {version.isLatest
          ? "This is the latest release"
          : `Latest release: ${report.package.latestVersion ?? "unknown"}`}
        {version.publishedAt ? ` · published ${version.publishedAt.slice(0, 10)}` : ""}.
      </p>
      {version.affected === true ? (
        <p>
          Affected by <strong>{total}</strong> of {summary.total} advisor{summary.total === 1 ? "y" : "ies"}
          {summary.affectingSelectedVersion.highest !== "none" ? (
            <>
              , highest <SeverityBadge severity={summary.affectingSelectedVersion.highest} />
            </>
          ) : null}
          .
        </p>
      ) : version.affected === false ? (
        <p>No published advisory in these sources covers this version.</p>
      ) : (
        <p>
          Some advisories give only commit ranges, so whether this version is affected cannot be decided from the data.
        </p>
      )}
      {affecting.length > 0 ? (
        <table className="list" data-testid="verdict-table">
          <thead>
            <tr>
              <th>Advisory</th>
              <th>Severity</th>
              <th>Matching ranges</th>
              <th>Nearest fixed version</th>
            </tr>
          </thead>
          <tbody>
            {affecting.map((a) => (
              <tr key={a.id} data-testid="verdict-row" data-advisory={a.id}>
                <td>
                  <a href={`#adv-${a.id}`}>{a.id}</a>
                </td>
                <td>
                  <SeverityBadge severity={a.severity} />
                </td>
                <td>
                  {a.versionVerdict.matchedRanges.map((r) => (
                    <code key={r} className="vuln-range">
                      {r}
                    </code>
                  ))}
                </td>
                <td data-testid="nearest-fixed">
                  {a.versionVerdict.nearestFixedVersion ? (
                    <code>{a.versionVerdict.nearestFixedVersion}</code>
                  ) : (
                    <span className="null">no fix published</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {undecided.length > 0 ? (
        <p className="small muted">Undetermined (commit ranges only): {undecided.map((a) => a.id).join(", ")}.</p>
      ) : null}
      {total > affecting.length ? (
        <p className="small muted">
          This page lists {affecting.length} of the {total} affecting advisories; page through the list below for the
          rest.
        </p>
      ) : null}
    </section>
  );
}
