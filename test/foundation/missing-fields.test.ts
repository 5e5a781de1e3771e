// A required field that was not sent is answered in words, "<field>: is required", on every route (one place:
// server/errors.ts), instead of zod's "Invalid input: expected string, received undefined"; refused before anything is
// charged. A field sent with the wrong type still says what was expected.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("a required field that was not sent", () => {
  it.each([
    ["GET", "/v1/scans", undefined, "host: is required"],
    ["GET", "/v1/dns/lookup", undefined, "domain: is required"],
    ["GET", "/v1/email/security", undefined, "domain: is required"],
    ["POST", "/v1/email/check", {}, "email: is required"],
    ["POST", "/v1/blocklists/check", {}, "targets: is required"],
    ["POST", "/v1/webhooks", { name: "n", event_types: ["high_risk_assessment"] }, "url: is required"],
  ])("%s %s is 400 INVALID_REQUEST naming it, free", async (method, path, body, message) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request(method, path, { key: ws.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message } });
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("names every field that is missing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: { event_types: [] } });
    expect(res.body.error.message).toMatch(/^name: is required; url: is required/);
  });

  it("says an enum field that was not sent is required, and a wrong value lists the options", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const missing = await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "vips" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("kind: is required");
    const wrong = await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "vips", kind: "planet" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/^kind: Invalid option: expected one of "/);
  });

  it("says an empty value that must not be empty in words, free", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("GET", "/v1/scans?host=", { key: ws.apiKey });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message: "host: must not be empty" } });
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("still says what was expected of a field sent with the wrong type", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/email/check", { key: ws.apiKey, body: { email: 5 } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("email: expected a string, got a number");
    const flag = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: "8.8.8.8", password_compromised: "yes" },
    });
    expect(flag.status).toBe(400);
    expect(flag.body.error.message).toBe("password_compromised: expected true or false, got a string");
    // A fraction where a whole number is needed names the number: "expected a whole number, got a number" said nothing.
    const page = await app.request("GET", "/v1/domain/example.com/subdomains?limit=1.5", { key: ws.apiKey });
    expect(page.status).toBe(400);
    expect(page.body.error.message).toBe("limit: expected a whole number, got 1.5");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("a query number that is not a number", () => {
  it("says so, not 'expected a number, got a number' (zod's coercion makes 'abc' NaN)", async () => {
    const { z } = await import("zod");
    const { issueText } = await import("../../server/errors");
    const schema = z.object({ limit: z.coerce.number().int().optional(), days: z.coerce.number().optional() });
    for (const [input, text] of [
      [{ limit: "abc" }, "limit: expected a number, got something that is not a number"],
      [{ days: "abc" }, "days: expected a number, got something that is not a number"],
      [{ limit: "1.5" }, "limit: expected a whole number, got 1.5"],
    ] as const) {
      const r = schema.safeParse(input);
      expect(r.success).toBe(false);
      expect(issueText(r.error!.issues[0]!)).toBe(text);
    }
  });
});

describe("a field that takes one of several forms", () => {
  it("says what is wrong with the value, not zod's bare 'Invalid input', free", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const monitor = (checks: unknown[]) =>
      app.request("POST", "/v1/monitors", { key: ws.apiKey, body: { target: "example.com", checks } });
    // A monitor's check is a word or an object: a word that is none of them lists the words...
    const word = await monitor(["tsl"]);
    expect(word.status).toBe(400);
    expect(word.body.error.code).toBe("INVALID_REQUEST");
    expect(word.body.error.message).toMatch(/^checks\.0: Invalid option: expected one of "tls"\|"scan"\|/);
    // ...an object names its field that is wrong...
    const object = await monitor([{ type: "tsl" }]);
    expect(object.body.error.message).toMatch(/^checks\.0\.type: Invalid option: expected one of "tls"\|/);
    // ...and a value of neither form says which forms are taken.
    const number = await monitor([5]);
    expect(number.body.error.message).toMatch(
      /^checks\.0: expected one of "tls", "scan", .* or an object, got a number$/,
    );

    const list = await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "vips", kind: "user" } });
    expect(list.status).toBe(200);
    const item = await app.request("POST", `/v1/lists/${list.body.id}/items`, {
      key: ws.apiKey,
      body: { items: [{ value: { id: 1 } }] },
    });
    expect(item.status).toBe(400);
    expect(item.body).toEqual({
      error: { code: "INVALID_REQUEST", message: "items.0.value: expected a string or a number, got an object" },
    });
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

// zod's bounds read "Too big: expected number to be <=500"; they are said in words, and nothing is charged.
describe("a value outside its bounds", () => {
  it.each([
    ["GET", "/v1/events?limit=101", undefined, "limit: must be at most 100"],
    ["GET", "/v1/events?limit=0", undefined, "limit: must be at least 1"],
    ["GET", `/v1/events?query=${"q".repeat(321)}`, undefined, "query: must be at most 320 characters"],
  ])("%s %s says the bound in words", async (method, path, body, message) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request(method, path, { key: ws.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toContain(message);
    expect(res.body.error.message).not.toMatch(/Too (big|small)/);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

// A field of the wrong type was also held to the bounds of the type it should have been: an array sent for a string
// "must have at least 3 items", a string sent for an array "must be at most 9 characters", contradicting the first
// half of the message; and a huge number was told two bounds, the safe-integer one first. One field, one problem.
describe("one problem per field", () => {
  it.each([
    [
      "POST",
      "/v1/webhooks",
      { name: "n", url: [], event_types: ["high_risk_assessment"] },
      "url: expected a string, got an array",
    ],
    ["POST", "/v1/assess", { event: "login", ip: "8.8.8.8", email: [] }, "email: expected a string, got an array"],
    [
      "POST",
      "/v1/monitors",
      { target: "example.com", checks: "x".repeat(20), interval: "24h" },
      "checks: expected an array, got a string",
    ],
    ["POST", "/v1/jobs/estimate", { targets: "" }, "targets: expected an array, got a string"],
    ["GET", "/v1/lists?limit=99999999999999999999", undefined, "limit: must be at most 200"],
    ["GET", "/v1/cases?min_age_minutes=99999999999999999999", undefined, "min_age_minutes: must be at most 525600"],
  ])("%s %s is one problem, 400 and free", async (method, path, body, message) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request(method, path, { key: ws.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message } });
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("still names two problems of two fields, and a bound of a value of the right type", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const two = await app.request("POST", "/v1/webhooks", {
      key: ws.apiKey,
      body: { name: [], url: "", event_types: ["high_risk_assessment"] },
    });
    expect(two.body.error.message).toBe("name: expected a string, got an array; url: must not be empty");
    const bound = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: "8.8.8.8", email: "ab" },
    });
    expect(bound.status).toBe(400);
    expect(bound.body.error.message).toMatch(/^email/);
  });
});

// /assess's `metadata` is an open object (a zod record): zod's own words leaked for it, "Invalid input: expected
// record, received null" and "Invalid key in record" for a key longer than 64 characters.
describe("an open object's problems in words", () => {
  it.each([
    [null, "metadata: expected an object, got null"],
    [[], "metadata: expected an object, got an array"],
    [{ ["k".repeat(65)]: 1 }, `metadata.${"k".repeat(65)}: a key must be at most 64 characters`],
  ])("metadata %j is 400 saying so, free", async (metadata, message) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: "8.8.8.8", metadata },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message } });
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});
