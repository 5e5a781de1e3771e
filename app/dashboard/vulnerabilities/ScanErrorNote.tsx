// A refused or failed scan (or cost check) in words: the API's message (ErrorNote, which keeps the code off the
// page) and what it means for a lockfile scan, above all whether units were used. A source outage has no hint: the
// server's message says which source failed, why (timed out, connection refused) and to try again, and a second
// sentence with a cause of its own once contradicted it. What a failed scan cost is read from the usage meter
// (`units`), not assumed.
import { ErrorNote, errorCode } from "../_components/ErrorNote";

const HINTS: Record<string, string> = {
  INVALID_REQUEST: "The file was refused before scanning, so no unit was used.",
  BULK_LOOKUPS_REQUIRED:
    "A scan of more than one package needs a plan with bulk lookups. No unit was used; a file of one package can be scanned on any plan.",
  CAPABILITY_REQUIRED: "The workspace's plan does not include vulnerability lookups; no unit was used.",
  QUOTA_EXCEEDED: "The units left this month do not cover this scan (one per package version); no unit was used.",
  RATE_LIMITED: "Too many requests in a short time; wait a moment and try again.",
  FORBIDDEN: "Ask a workspace owner about your access; no unit was used.",
};

export function ScanErrorNote({
  error,
  units,
  testId = "scan-error",
  id,
}: {
  error: unknown;
  /** What the usage meter moved by across the attempt, when measured. */
  units?: number;
  testId?: string;
  /** The id the refused field names in its aria-describedby (field-problem.ts). */
  id?: string;
}) {
  const code = errorCode(error);
  const hint = code ? HINTS[code] : undefined;
  return (
    <div className="vuln-error" data-testid={testId}>
      <ErrorNote error={error} id={id} />
      {hint ? <p className="small muted">{hint}</p> : null}
      {units !== undefined && code === "UPSTREAM_UNAVAILABLE" ? (
        <p className="small muted" data-testid="scan-error-units">
          {units <= 0 ? "No unit was used." : `This attempt used ${units} unit${units === 1 ? "" : "s"}.`}
        </p>
      ) : null}
    </div>
  );
}
