// Which 401 a request's key headers get (spec, Authentication 5: a missing or invalid key is 401 UNAUTHORIZED): an
// empty header presents no key and is told a key is required, as a request without one is; only both headers at
// once, or one repeated, is told to send exactly one.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const REQUIRED = "An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>.";
const EXACTLY_ONE =
  "Send exactly one API key, once: Authorization: Bearer <key> or X-API-Key: <key>, not both and not repeated.";

describe("the 401 of the key headers", () => {
  it.each([
    ["no key header", {}, REQUIRED],
    ["an empty X-API-Key", { "X-API-Key": "" }, REQUIRED],
    ["an X-API-Key of spaces", { "X-API-Key": "   " }, REQUIRED],
    ["an empty Authorization", { Authorization: "" }, REQUIRED],
    ["both headers", { Authorization: "Bearer sk_live_abc", "X-API-Key": "sk_live_abc" }, EXACTLY_ONE],
    ["a repeated X-API-Key", { "X-API-Key": "sk_live_a, sk_live_b" }, EXACTLY_ONE],
  ])("%s: 401 UNAUTHORIZED", async (_what, headers, message) => {
    const res = await app.request("GET", "/v1/events", { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message } });
  });

  it("an empty X-API-Key on POST /v1/go/links is refused, never anonymous", async () => {
    const res = await app.request("POST", "/v1/go/links", {
      headers: { "X-API-Key": "" },
      body: { url: "https://example.com/" },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: REQUIRED } });
  });
});
