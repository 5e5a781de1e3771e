// Requests to next-auth's routes (/api/auth/*) that next-auth itself answered with a 500, found by fuzzing the
// production server: a GET of the development sign-in's callback ("Callback for provider type credentials not
// supported", text/plain) and an `error` on /api/auth/error that a Location header cannot carry (next-auth redirects
// to the sign-in page with it unencoded; U+0100 and above, or a line break, threw "Cannot convert argument to a
// ByteString" with a stack trace in the log). The route answers those first, in the spec's error body, and hands
// everything else to next-auth as before.
import { describe, expect, it } from "vitest";
import { authRouteRefusal } from "../../server/api/http/auth-route-guard";
import { getAuthOptions, OIDC_PROVIDER_ID } from "../../server/auth/options";

const BASE = "http://127.0.0.1:3000";
// The providers the route hands next-auth: in tests, the development sign-in (next-auth's CredentialsProvider, whose
// own id is "credentials" until next-auth merges in the "dev" it was given).
const dev = getAuthOptions().providers;
const oidc = [{ id: OIDC_PROVIDER_ID, type: "oauth" }];

/** The route's catch-all segments as Next hands them over: the path after /api/auth/, each segment decoded. */
const segmentsOf = (path: string) =>
  new URL(`${BASE}${path}`).pathname
    .replace(/^\/api\/auth\/?/, "")
    .split("/")
    .filter(Boolean)
    .map(decodeURIComponent);

const refusal = (method: string, path: string, providers: readonly object[] = dev) =>
  authRouteRefusal(new Request(`${BASE}${path}`, { method }), segmentsOf(path), providers);

async function body(res: Response | null) {
  expect(res).not.toBeNull();
  expect(res!.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(res!.headers.get("x-request-id")).toMatch(/^req_/);
  expect(res!.headers.get("cache-control")).toBe("private, no-store");
  return res!.json();
}

describe("the development sign-in's callback", () => {
  it("a GET (the callback takes only POST) is 404 LOOKUP_NOT_FOUND, not next-auth's 500", async () => {
    // next-auth reads the provider from the decoded segments, so the review found `dev/x` and `%64ev` still a 500.
    for (const path of [
      "/api/auth/callback/dev",
      "/api/auth/callback/dev?email=a@example.com",
      "/api/auth/callback/dev/x",
      "/api/auth/callback/%64ev",
      "/api/auth/%63allback/dev",
    ]) {
      const res = refusal("GET", path);
      expect(res?.status, path).toBe(404);
      expect(await body(res)).toEqual({ error: { code: "LOOKUP_NOT_FOUND", message: expect.any(String) } });
    }
  });

  it("a POST, and an OAuth provider's GET callback, are next-auth's", () => {
    expect(refusal("POST", "/api/auth/callback/dev")).toBeNull();
    expect(refusal("GET", "/api/auth/callback/oidc?code=x&state=y", oidc)).toBeNull();
    // With the OIDC provider configured there is no credentials provider: its name is next-auth's to answer.
    expect(refusal("GET", "/api/auth/callback/dev", oidc)).toBeNull();
  });
});

describe("the error page's `error`", () => {
  it.each([
    ["a character past Latin-1", "%C4%80"],
    ["the replacement character Next reads %ff as", "%EF%BF%BD"],
    ["a right-to-left override", "%E2%80%AE"],
    ["a line break and a header", "a%0d%0aSet-Cookie:x=1"],
    ["a Latin-1 letter (redirected as a raw byte, not UTF-8)", "%C3%A9"],
  ])("%s is 400 INVALID_REQUEST naming the parameter", async (_label, value) => {
    const res = refusal("GET", `/api/auth/error?error=${value}`);
    expect(res?.status).toBe(400);
    expect(await body(res)).toEqual({
      error: { code: "INVALID_REQUEST", message: expect.stringMatching(/^error: /) },
    });
  });

  // next-auth takes `error` from the query, else from the segment after `error` (the review: each was still a 500,
  // or a rewritten sign-in query for a%26b).
  it.each([
    "/api/auth/error/%C4%80",
    "/api/auth/error/x?error=%C4%80",
    "/api/auth/%65rror?error=%C4%80",
    "/api/auth/error/a%26b",
  ])("%s is 400 INVALID_REQUEST too", async (path) => {
    const res = refusal("GET", path);
    expect(res?.status).toBe(400);
    expect((await body(res)).error.code).toBe("INVALID_REQUEST");
  });

  it("next-auth's own codes, and no code, are next-auth's", () => {
    for (const path of [
      "/api/auth/error?error=Configuration",
      "/api/auth/error?error=CredentialsSignin",
      "/api/auth/error",
      "/api/auth/error?error=",
      "/api/auth/error/Configuration",
      "/api/auth/signin?error=%C4%80",
      "/api/auth/session",
      "/api/auth/csrf",
    ])
      expect(refusal("GET", path), path).toBeNull();
  });
});
