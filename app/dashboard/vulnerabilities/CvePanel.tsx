"use client";
// CVE lookup: the advisory records for one identifier across ecosystems, and its CISA KEV entry if any.
import { useState } from "react";
import { useRefusalAtField } from "../_components/field-problem";
import { formatUtc } from "../_components/format";
import { useTRPCClient } from "../_components/trpc";
import { LookupErrorNote } from "./LookupErrorNote";
import { SeverityBadge } from "./SeveritySummary";
import type { CveReport, Outcome } from "./types";
import type { useMeteredLookup } from "./useMeteredLookup";
import { BusyButton } from "../_components/BusyButton";

function CveResult({ report }: { report: CveReport }) {
  const kev = report.knownExploited;
  return (
    <div data-testid="cve-result">
      {kev ? (
        <div className="vuln-kev-note" data-testid="cve-kev">
          <strong>Known exploited (CISA KEV)</strong>: {kev.vulnerabilityName} ({kev.vendorProject} {kev.product}),
          added {kev.dateAdded}
          {kev.dueDate ? `, due ${kev.dueDate}` : ""}, ransomware use: {kev.knownRansomwareCampaignUse}.
          <p className="small">{kev.shortDescription}</p>
          <p className="small muted">{kev.requiredAction}</p>
        </div>
      ) : (
        <p className="small muted">
          Not in the known-exploited catalog (version {report.knownExploitedCatalog.version ?? "unknown"}
          {report.knownExploitedCatalog.partial ? ", partial snapshot" : ""}).
        </p>
      )}
      {report.advisories === null ? (
        <p className="small muted" data-testid="cve-advisories-unavailable">
          Advisory records could not be fetched right now; the known-exploited entry above is from the local catalog.
          Try again later for the advisories.
        </p>
      ) : report.advisories.length === 0 ? (
        <p className="small muted">No advisory records.</p>
      ) : null}
      <ul className="vuln-advisories">
        {(report.advisories ?? []).map((a) => (
          <li key={a.id} className="vuln-advisory" data-testid="cve-advisory">
            <div className="row">
              <SeverityBadge severity={a.severity} />
              <strong>{a.id}</strong>
              {a.aliases.map((x) => (
                <code key={x} className="vuln-alias">
                  {x}
                </code>
              ))}
              {a.withdrawnAt ? <span className="badge">withdrawn {a.withdrawnAt.slice(0, 10)}</span> : null}
            </div>
            <p className="vuln-advisory-title">{a.title}</p>
            <p className="small muted">
              Published {formatUtc(a.publishedAt)} · modified {formatUtc(a.modifiedAt)}
            </p>
            {a.affected.length > 0 ? (
              <table className="list">
                <tbody>
                  {a.affected.map((x, i) => (
                    <tr key={`${x.ecosystem}:${x.package}:${i}`}>
                      <td>
                        {x.package ? (
                          <>
                            {x.ecosystem} <code>{x.package}</code>
                          </>
                        ) : (
                          <span className="muted">source repository (commit range)</span>
                        )}
                      </td>
                      <td>
                        {x.affectedRanges.map((r) => (
                          <code key={r} className="vuln-range">
                            {r}
                          </code>
                        ))}
                      </td>
                      <td>
                        {x.fixedVersions.length ? (
                          <>
                            fixed in{" "}
                            {x.fixedVersions.map((v) => (
                              <code key={v} className="vuln-fixed">
                                {v}
                              </code>
                            ))}
                          </>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <ul className="vuln-refs small">
              {a.references
                .filter((u) => /^https?:\/\//.test(u))
                .map((u) => (
                  <li key={u}>
                    <a href={u} target="_blank" rel="noreferrer noopener">
                      {u}
                    </a>
                  </li>
                ))}
            </ul>
          </li>
        ))}
      </ul>
      <p className="small muted">
        Sources: OSV <code>{report.sources.osv}</code>
        {report.sources.kev ? (
          <>
            {" "}
            · KEV <code>{report.sources.kev}</code>
          </>
        ) : null}{" "}
        · checked {formatUtc(report.checkedAt)}
      </p>
    </div>
  );
}

/** The form's field as it labels it: the API's "cveId: …" is said of the CVE identifier. */
const CVE_LABELS: Record<string, string> = { cveId: "CVE identifier" };

export function CvePanel({ lookup }: { lookup: ReturnType<typeof useMeteredLookup> }) {
  const client = useTRPCClient();
  const [cveId, setCveId] = useState("");
  const [outcome, setOutcome] = useState<Outcome<CveReport> | null>(null);
  const refusal = useRefusalAtField(outcome && !outcome.ok ? outcome.error : null, {
    labels: CVE_LABELS,
    main: "cveId",
  });
  return (
    <section className="card" data-testid="cve-panel">
      <h2>CVE lookup</h2>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setOutcome(await lookup.run(() => client.vulnerabilities.cve.query({ cveId: cveId.trim() })));
        }}
      >
        <div className="form-row">
          <label>
            <span>CVE identifier</span>
            <input
              name="cveId"
              value={cveId}
              required
              placeholder="CVE-2021-44228"
              onChange={(e) => setCveId(e.target.value)}
              {...refusal.fieldProps("cveId")}
            />
          </label>
          <BusyButton type="submit" className="btn btn-primary" busy={lookup.running} data-testid="run-cve">
            Look up (1 unit)
          </BusyButton>
        </div>
      </form>
      {outcome && !outcome.ok ? (
        <LookupErrorNote error={outcome.error} labels={CVE_LABELS} id={refusal.noteId} />
      ) : null}
      {outcome && outcome.ok ? <CveResult report={outcome.data} /> : null}
    </section>
  );
}
