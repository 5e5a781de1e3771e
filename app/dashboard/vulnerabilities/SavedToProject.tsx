"use client";
// A scan kept in a project's history (the Project field of the scan form, the API's `project`): where it was kept,
// what it was compared with, and what "new since" means, with the way to the project's history.
import Link from "next/link";
import type { Finding } from "../../../server/projects/findings";
import type { ProjectScanAnswer } from "../../../server/projects/schemas";
import { formatUtc } from "../_components/format";

/** Findings listed under each heading; the project's page has them all. */
const SHOWN = 10;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function Findings({ title, findings, testId }: { title: string; findings: Finding[]; testId: string }) {
  if (findings.length === 0) return null;
  return (
    <div className="scan-detail-block" data-testid={testId}>
      <h3>{title}</h3>
      <ul className="scan-findings">
        {findings.slice(0, SHOWN).map((f) => (
          <li key={`${f.ecosystem}:${f.name}:${f.kind}:${f.id ?? ""}`}>
            <strong>
              {f.name} {f.version}
            </strong>{" "}
            <span className="muted">({f.ecosystem})</span>: {f.kind === "advisory" ? f.id : f.kind.replace(/_/g, " ")} ·{" "}
            {f.severity}
          </li>
        ))}
      </ul>
      {findings.length > SHOWN ? (
        <p className="small muted">and {findings.length - SHOWN} more on the project&apos;s page</p>
      ) : null}
    </div>
  );
}

export function SavedToProject({
  kept,
  diff,
}: {
  kept: NonNullable<ProjectScanAnswer["project"]>;
  diff: NonNullable<ProjectScanAnswer["diff"]>;
}) {
  const href = `/dashboard/projects?project=${encodeURIComponent(kept.name)}`;
  return (
    <section className="card scan-saved" data-testid="scan-saved" aria-labelledby="scan-saved-title">
      <h2 id="scan-saved-title">
        Saved to project <span data-testid="scan-saved-name">{kept.name}</span>
      </h2>
      <p className="small muted">
        Kept in the project&apos;s history under <code>{kept.ref}</code> until{" "}
        <time dateTime={kept.expires_at}>{formatUtc(kept.expires_at)}</time>.
      </p>
      {diff.base ? (
        <p data-testid="scan-saved-diff">
          Since the project&apos;s previous scan of <code>{diff.base.ref}</code> (
          <time dateTime={diff.base.created_at}>{formatUtc(diff.base.created_at)}</time>):{" "}
          <strong>{plural(diff.new.length, "new finding", "new findings")}</strong>, that is, found now and not in that
          scan; <strong>{plural(diff.fixed.length, "fixed", "fixed")}</strong>, in that scan and gone now;{" "}
          {plural(diff.unchanged, "finding unchanged", "findings unchanged")}.
        </p>
      ) : (
        <p data-testid="scan-saved-diff">
          This is the project&apos;s first scan, so all {plural(diff.new.length, "finding", "findings")} count as new.
          The next scan saved to {kept.name} lists as new only what it finds that this one did not, and as fixed what
          this one found and it no longer does.
        </p>
      )}
      {diff.base ? <Findings title="New since the previous scan" findings={diff.new} testId="scan-saved-new" /> : null}
      <Findings title="Fixed since the previous scan" findings={diff.fixed} testId="scan-saved-fixed" />
      <p>
        <Link href={href} data-testid="scan-saved-link">
          Open {kept.name}&apos;s history
        </Link>
      </p>
    </section>
  );
}
