// The client's correlation id (its X-Request-Id), as every answer of the service echoes and logs it: the REST door's
// observation (server/operate/observe.ts) and the start-up gate's 503s (scripts/startup-gate.mjs), which imports no
// TypeScript. Plain JavaScript so that both can import it.

// Letters, digits and -_.: only, at most 128: anything else could forge log lines or carry personal data.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9\-_.:]{1,128}$/;
// An API key in its place (a client that sends its key as its correlation id) is never written or echoed either:
// the shapes of server/keys/secret.ts, with any text around them.
const LOOKS_LIKE_A_KEY = /(?:svc|pk)_live_[A-Za-z0-9_-]{20}/;

/** The value if it may be echoed and logged as the client's correlation id, else null. */
export function acceptedClientRequestId(value) {
  return typeof value === "string" && CLIENT_REQUEST_ID.test(value) && !LOOKS_LIKE_A_KEY.test(value) ? value : null;
}
