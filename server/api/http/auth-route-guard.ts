// What the next-auth route (app/api/auth/[...nextauth]/route.ts) answers before next-auth sees the request: the
// requests next-auth itself answers with a 500. A GET of a credentials provider's callback ("Callback for provider
// type credentials not supported") is a method the route does not take: 404 LOOKUP_NOT_FOUND, as on every JSON entry.
// The error page redirects to the sign-in page with its `error` copied unencoded into the Location header, so a value
// a header cannot carry (past Latin-1, a line break) threw there, and any other character outside a code's letters
// would rewrite the sign-in page's query: next-auth's codes are words (`Configuration`, `CredentialsSignin`), and
// anything else is 400 INVALID_REQUEST. Both are judged as next-auth reads the request: its action and provider are
// the route's decoded catch-all segments (`/api/auth/%65rror`, `/api/auth/callback/dev/x`), and the error page's
// `error` is the query's, else the second segment (`/api/auth/error/<code>`).
import { json, startResponse } from "./respond";

const ERROR_CODE = /^[A-Za-z0-9_-]{0,64}$/;
const NOT_FOUND_MESSAGE = "No such route or method.";

/** A provider as the options list it: next-auth's builders keep the id they were given in `options` until merged. */
type ProviderEntry = { id?: string; type?: string; options?: { id?: string } };

/** The id next-auth routes a provider under (CredentialsProvider({ id: "dev" }) has its own id "credentials"). */
const routedId = (p: ProviderEntry) => p.options?.id ?? p.id;

/**
 * The answer for a request next-auth would fail on, or null to hand it to next-auth. `segments` are the route's
 * catch-all segments as Next decodes them (`params.nextauth`), which next-auth reads its action and provider from.
 */
export function authRouteRefusal(
  req: Request,
  segments: readonly string[],
  providers: readonly object[],
): Response | null {
  const [action, second] = segments;
  if (action === "callback" && second !== undefined && req.method !== "POST") {
    if ((providers as ProviderEntry[]).some((p) => p.type === "credentials" && routedId(p) === second))
      return refuse(req, 404, "LOOKUP_NOT_FOUND", NOT_FOUND_MESSAGE);
  }
  if (action !== "error") return null;
  const query = new URL(req.url).searchParams;
  const codes = query.has("error") ? query.getAll("error") : second !== undefined ? [second] : [];
  if (!codes.every((e) => ERROR_CODE.test(e)))
    return refuse(
      req,
      400,
      "INVALID_REQUEST",
      "error: must be one of the sign-in's error codes (letters, digits, - and _, at most 64), such as Configuration.",
    );
  return null;
}

function refuse(req: Request, status: number, code: string, message: string): Response {
  return json(status, { error: { code, message } }, startResponse(req).headers);
}
