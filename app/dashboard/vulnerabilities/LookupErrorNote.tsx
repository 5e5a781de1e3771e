// A failed lookup: the API's code and message (ErrorNote), and what the code means on this page. A source outage
// has no hint: the server's message names the source, the cause and when to retry (a second cause here once
// contradicted it), and the meter at the top of the page says what the attempt cost.
import { ErrorNote, errorCode } from "../_components/ErrorNote";
import { inFormWords } from "../_components/field-words";

const HINTS: Record<string, string> = {
  PACKAGE_NOT_FOUND:
    "The registry does not list this package (or it was unpublished). Check the spelling and the ecosystem. The lookup still used its unit.",
  VERSION_NOT_FOUND:
    "The registry lists the package but not this version. Use an exact published version, or leave the version empty for the latest.",
  CVE_NOT_FOUND: "Neither OSV nor the known-exploited catalog knows this identifier.",
  INVALID_REQUEST: "The input was refused before running, so no unit was used.",
  CAPABILITY_REQUIRED: "The workspace's plan does not include vulnerability lookups; no unit was used.",
  QUOTA_EXCEEDED: "The workspace's monthly allowance is used up.",
  RATE_LIMITED: "Too many lookups in a short time for this plan; wait a moment and try again.",
};

/** `labels`: the form's fields as it labels them, so "coordinate: …" is said of the Package field. */
export function LookupErrorNote({
  error,
  labels,
  id,
}: {
  error: unknown;
  labels?: Record<string, string>;
  /** The id the refused field names in its aria-describedby (field-problem.ts). */
  id?: string;
}) {
  const code = errorCode(error);
  const hint = code ? HINTS[code] : undefined;
  return (
    <div className="vuln-error" data-testid="lookup-error">
      <ErrorNote error={error} words={labels ? (m) => inFormWords(m, labels) : undefined} id={id} />
      {hint ? <p className="small muted">{hint}</p> : null}
    </div>
  );
}
