// One card per advisory: severity, ids, dates, the ranges it affects (those containing the chosen version
// marked), fixed versions, its sources, references as links, and CISA KEV entries highlighted.
import { formatUtc } from "../_components/format";
import { SeverityBadge } from "./SeveritySummary";
import type { PackageAdvisory } from "./types";
import { VerdictBadge } from "./VersionVerdict";

function KevNote({ entries }: { entries: PackageAdvisory["knownExploited"] }) {
  return (
    <div className="vuln-kev-note" data-testid="advisory-kev">
      <strong>Known exploited (CISA KEV)</strong>
      {entries.map((k) => (
        <p key={k.cveId} className="small">
          <code>{k.cveId}</code> {k.vulnerabilityName} · added {k.dateAdded}
          {k.dueDate ? ` · due ${k.dueDate}` : ""} · ransomware use: {k.knownRansomwareCampaignUse}
          <br />
          <span className="muted">{k.requiredAction}</span>
        </p>
      ))}
    </div>
  );
}

function Advisory({ a, version }: { a: PackageAdvisory; version: string }) {
  const kev = a.knownExploited.length > 0;
  const matched = new Set(a.versionVerdict.matchedRanges);
  return (
    <li
      id={`adv-${a.id}`}
      className={`vuln-advisory${kev ? " vuln-advisory-kev" : ""}`}
      data-testid="advisory"
      data-advisory={a.id}
    >
      <div className="row-between">
        <div className="row">
          <SeverityBadge severity={a.severity} />
          <strong data-testid="advisory-id">{a.id}</strong>
          {a.aliases.map((x) => (
            <code key={x} className="vuln-alias">
              {x}
            </code>
          ))}
          {kev ? <span className="vuln-kev-badge">KEV</span> : null}
        </div>
        <span className="small" title={`Verdict for ${version}`}>
          {version}: <VerdictBadge affected={a.versionVerdict.affected} />
        </span>
      </div>
      <p className="vuln-advisory-title">{a.title}</p>
      <dl className="vuln-facts">
        <dt>Published</dt>
        <dd>{a.publishedAt ? formatUtc(a.publishedAt) : <span className="null">not given by the source</span>}</dd>
        <dt>Modified</dt>
        <dd>{a.modifiedAt ? formatUtc(a.modifiedAt) : <span className="null">not given by the source</span>}</dd>
        <dt>Affected ranges</dt>
        <dd data-testid="advisory-ranges">
          {a.affectedRanges.length === 0 ? <span className="null">none listed</span> : null}
          {a.affectedRanges.map((r) => (
            <code
              key={r}
              className={`vuln-range${matched.has(r) ? " vuln-range-matched" : ""}`}
              title={matched.has(r) ? `contains ${version}` : undefined}
            >
              {r}
            </code>
          ))}
        </dd>
        <dt>Fixed in</dt>
        <dd data-testid="advisory-fixed">
          {a.fixedVersions.length === 0 ? <span className="null">no fixed version published</span> : null}
          {a.fixedVersions.map((v) => (
            <code
              key={v}
              className={`vuln-fixed${v === a.versionVerdict.nearestFixedVersion ? " vuln-fixed-nearest" : ""}`}
            >
              {v}
            </code>
          ))}
        </dd>
        <dt>Sources</dt>
        <dd>{a.sources.join(", ")}</dd>
        <dt>References</dt>
        <dd>
          <ul className="vuln-refs">
            {a.references.map((u) => (
              <li key={u}>
                {/^https?:\/\//.test(u) ? (
                  <a href={u} target="_blank" rel="noreferrer noopener">
                    {u}
                  </a>
                ) : (
                  u
                )}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      {kev ? <KevNote entries={a.knownExploited} /> : null}
    </li>
  );
}

export function AdvisoryList({ advisories, version }: { advisories: PackageAdvisory[]; version: string }) {
  return (
    <ol className="vuln-advisories" data-testid="advisory-list">
      {advisories.map((a) => (
        <Advisory key={a.id} a={a} version={version} />
      ))}
    </ol>
  );
}
