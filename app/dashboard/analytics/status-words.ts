// What an error status (and, when it was recorded, its error code) means, in words for the analytics page's
// "top error statuses": "402 Out of lookup units", never a bare number or code.
const BY_CODE: Record<string, string> = {
  INVALID_REQUEST: "Invalid request (bad or missing input)",
  INVALID_INPUT: "Refused input (a full card number; send the BIN and last four)",
  TARGET_FORBIDDEN: "Target not allowed (private or reserved address)",
  UNAUTHORIZED: "Not signed in, or the API key is wrong",
  QUOTA_EXCEEDED: "Out of lookup units",
  CAPABILITY_REQUIRED: "Not included in the plan",
  BULK_LOOKUPS_REQUIRED: "Bulk lookups not included in the plan",
  API_KEY_PAUSED: "API key paused",
  ORIGIN_FORBIDDEN: "Sent from a page that may not call the API",
  FORBIDDEN: "Not allowed for this member's role",
  LOOKUP_NOT_FOUND: "Nothing found for the lookup",
  NOT_FOUND: "Not found (unknown or deleted item)",
  PACKAGE_NOT_FOUND: "Package not found",
  VERSION_NOT_FOUND: "Package version not found",
  CVE_NOT_FOUND: "CVE not found",
  DOMAIN_NOT_FOUND: "Domain not found",
  CONFLICT: "Conflict with the current state",
  KEY_LIMIT_REACHED: "API key limit of the plan reached",
  MEMBER_LIMIT_REACHED: "Member limit of the plan reached",
  SENDER_LIMIT_REACHED: "Sender limit of the plan reached",
  MONITOR_LIMIT_REACHED: "Monitor limit of the plan reached",
  RATE_LIMITED: "Too many requests (rate limited)",
  INTERNAL_ERROR: "Internal error on our side",
  UPSTREAM_UNAVAILABLE: "A data source did not answer",
};

const BY_STATUS: Record<number, string> = {
  400: "Invalid request (bad or missing input)",
  401: "Not signed in, or the API key is wrong",
  402: "Out of lookup units",
  403: "Not allowed (plan, role or paused key)",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict or plan limit reached",
  410: "Gone (disabled or expired)",
  413: "Request too large",
  415: "Body is not JSON",
  429: "Too many requests (rate limited)",
  500: "Internal error on our side",
  502: "A data source answered badly",
  503: "A data source did not answer",
  504: "A data source took too long",
};

/** "402 Out of lookup units": the status and what it means. */
export function statusInWords(status: number, code: string | null): string {
  const words =
    (code ? BY_CODE[code] : undefined) ??
    BY_STATUS[status] ??
    (status >= 500 ? "Error on our side" : "Request refused");
  return `${status} ${words}`;
}
