// The package report: registry metadata, the verdict for the chosen version, the severity summary, the
// package's known-exploited matches, one page of advisories, and the sources behind it all.
import { RawJson, StructureTree } from "../_components/ResultView";
import { AdvisoryList } from "./AdvisoryList";
import { FindingsPanel } from "./FindingsPanel";
import { MalwarePanel } from "./MalwarePanel";
import { Pager } from "./Pager";
import { SeveritySummary } from "./SeveritySummary";
import { SourcesPanel } from "./SourcesPanel";
import type { PackageReport } from "./types";
import { VersionVerdict } from "./VersionVerdict";
import { forUsers } from "../_components/answers/user-text";
import { WatchPackageLink } from "../monitors/WatchHostLink";

const fmt = new Intl.NumberFormat("en-US");

function PackageFacts({ report }: { report: PackageReport }) {
  const p = report.package;
  return (
    <section className="card" data-testid="package-facts">
      <h2>
        <span data-testid="package-name">{p.name}</span> <span className="muted small">{p.ecosystem}</span>
      </h2>
      {p.description ? <p>{p.description}</p> : null}
      <dl className="vuln-facts">
        <dt>Latest version</dt>
        <dd>{p.latestVersion ? <code>{p.latestVersion}</code> : <span className="null">unknown</span>}</dd>
        <dt>Published versions</dt>
        <dd>{p.versionCount}</dd>
        <dt>Licence</dt>
        <dd>{p.license ?? <span className="null">not given by the registry</span>}</dd>
        <dt>Repository</dt>
        <dd>
          {p.repositoryUrl && /^https?:\/\//.test(p.repositoryUrl) ? (
            <a href={p.repositoryUrl} target="_blank" rel="noreferrer noopener">
              {p.repositoryUrl}
            </a>
          ) : (
            (p.repositoryUrl ?? <span className="null">not given by the registry</span>)
          )}
        </dd>
        <dt>Weekly downloads</dt>
        <dd>
          {report.downloads ? (
            `${fmt.format(report.downloads.weeklyDownloads)} (${report.downloads.start} to ${report.downloads.end})`
          ) : (
            <span className="null">{report.downloadsUnavailableReason ?? "not available"}</span>
          )}
        </dd>
      </dl>
    </section>
  );
}

function KnownExploited({ report }: { report: PackageReport }) {
  if (report.knownExploited.length === 0) return null;
  return (
    <section className="card vuln-kev-card" data-testid="package-kev">
      <h2>
        Known exploited: {report.knownExploited.length} CISA KEV entr{report.knownExploited.length === 1 ? "y" : "ies"}
      </h2>
      <ul>
        {report.knownExploited.map((k) => (
          <li key={k.cveId}>
            <code>{k.cveId}</code> {k.vulnerabilityName} ({k.vendorProject} {k.product}) · added {k.dateAdded}
            {k.dueDate ? ` · due ${k.dueDate}` : ""} · ransomware use: {k.knownRansomwareCampaignUse} · advisories{" "}
            {k.advisoryIds.map((id) => (
              <a key={id} href={`#adv-${id}`} className="vuln-alias">
                {id}
              </a>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PackageReportView({
  report,
  running,
  onPage,
}: {
  report: PackageReport;
  running: boolean;
  onPage: (offset: number) => void;
}) {
  const page = report.pagination;
  return (
    <div data-testid="package-report">
      <MalwarePanel report={report} />
      <FindingsPanel report={report} />
      <PackageFacts report={report} />
      <VersionVerdict report={report} />
      <WatchPackageLink
        ecosystem={report.package.ecosystem}
        name={report.package.coordinate}
        version={report.version.selected}
      />
      <SeveritySummary summary={report.summary} selectedVersion={report.version.selected} />
      <KnownExploited report={report} />
      <section className="card">
        <h2>Advisories</h2>
        {page.total === 0 ? (
          <p className="notice" data-testid="no-advisories">
            No published advisories for {report.package.name}. {forUsers(report.noAdvisoryCopy)}
          </p>
        ) : (
          <>
            <Pager
              noun="advisories"
              offset={page.offset}
              limit={page.limit}
              total={page.total}
              shown={report.advisories.length}
              running={running}
              onPage={onPage}
            />
            <AdvisoryList advisories={report.advisories} version={report.version.selected} />
            <Pager
              bottom
              noun="advisories"
              offset={page.offset}
              limit={page.limit}
              total={page.total}
              shown={report.advisories.length}
              running={running}
              onPage={onPage}
            />
            <p className="small muted">{forUsers(report.noAdvisoryCopy)}</p>
          </>
        )}
      </section>
      <SourcesPanel report={report} />
      <details className="card" data-testid="answer-details">
        <summary>Details</summary>
        <StructureTree value={report} />
      </details>
      <details className="card" data-testid="answer-raw">
        <summary>Raw JSON</summary>
        <RawJson value={report} />
      </details>
    </div>
  );
}
