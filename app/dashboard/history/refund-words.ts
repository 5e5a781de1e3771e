// A lookup history entry's refund in words (issue 42, item 0): what a failed answer gave back, without the status and
// error code the API's reason starts with.

/**
 * What a request gave back, in words: "867 units given back: The OSV advisory database is unavailable (timed out)".
 * The stored reason starts with the answer's status and error code for the API ("Not answered (503
 * UPSTREAM_UNAVAILABLE): ..."), which a person here does not need.
 */
export function refundText(summary: Record<string, unknown>): string | null {
  const units = summary.refunded_units;
  if (typeof units !== "number" || units <= 0) return null;
  const reason = typeof summary.refund_reason === "string" ? summary.refund_reason : "";
  const words = reason.replace(/^Not answered \(\d{3} [A-Z_]+\):\s*/, "").replace(/;\s*try again in a moment\.?$/, ".");
  return `${units} unit${units === 1 ? "" : "s"} given back${words ? `: ${words}` : ""}`;
}
