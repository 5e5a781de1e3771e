"use client";
// A list of findings in words (a scan's new, fixed or open ones): the package and version, what was found, the
// fixed version; malware and the most severe first, as the API orders them.
import type { Finding } from "../../../server/projects/findings";

const KIND_WORDS: Record<string, string> = { malware: "Malware report", advisory: "Advisory" };
const kindWords = (kind: string) => KIND_WORDS[kind] ?? kind.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

export function FindingList({ findings, empty, testId }: { findings: Finding[]; empty: string; testId: string }) {
  if (findings.length === 0)
    return (
      <p className="muted small" data-testid={`${testId}-empty`}>
        {empty}
      </p>
    );
  return (
    <ul className="finding-list" data-testid={testId}>
      {findings.map((f) => (
        <li key={`${f.ecosystem}:${f.name}@${f.version}:${f.kind}:${f.id ?? ""}`} data-testid="finding">
          <span className={`severity-tag severity-${f.severity}`}>{f.severity}</span>{" "}
          <strong>
            {f.name}@{f.version}
          </strong>{" "}
          <span className="muted small">({f.ecosystem})</span>: {kindWords(f.kind)}
          {f.id ? ` ${f.id}` : ""} — {f.summary}
          {f.fixed_version ? <span className="small"> · fixed in {f.fixed_version}</span> : null}
        </li>
      ))}
    </ul>
  );
}
