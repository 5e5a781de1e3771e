import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterEach(() => {
  delete process.env.SERVICE_RULES_MAX;
});

const blockXX = {
  name: "Block XX",
  action: "block",
  priority: 5,
  conditions: [{ field: "country", op: "eq", value: "KP" }],
};

describe("rules CRUD", () => {
  it("creates, lists, reads, updates and deletes a rule, unmetered, with events recorded", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const created = await app.request("POST", "/v1/rules", { key: ws.apiKey, body: blockXX });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^rule_/),
      name: "Block XX",
      action: "block",
      mode: "active",
      priority: 5,
      enabled: true,
      conditions: [{ field: "country", op: "eq", value: "KP" }],
      expression: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id;
    expect((await app.request("GET", "/v1/rules", { key: ws.apiKey })).body).toEqual({ items: [created.body] });
    expect((await app.request("GET", `/v1/rules/${id}`, { key: ws.apiKey })).body).toEqual(created.body);

    const patched = await app.request("PATCH", `/v1/rules/${id}`, {
      key: ws.apiKey,
      body: { enabled: false, action: "review" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, action: "review", enabled: false, priority: 5, name: "Block XX" });

    const deleted = await app.request("DELETE", `/v1/rules/${id}`, { key: ws.apiKey });
    expect(deleted.body).toEqual({ id, deleted: true });
    const gone = await app.request("GET", `/v1/rules/${id}`, { key: ws.apiKey });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("NOT_FOUND");

    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    const events = await app.request("GET", `/v1/events?query=${id}`, { key: ws.apiKey });
    expect(events.body.items.map((e: { type: string }) => e.type)).toEqual([
      "audit.rule.deleted",
      "audit.rule.updated",
      "audit.rule.created",
    ]);
  });

  it("lists rules in evaluation order: ascending priority, then oldest first", async () => {
    const ws = await app.seedWorkspace();
    for (const [name, priority] of [
      ["b", 10],
      ["a", 1],
      ["c", 10],
    ] as const) {
      await app.request("POST", "/v1/rules", { key: ws.apiKey, body: { ...blockXX, name, priority } });
    }
    const list = await app.request("GET", "/v1/rules", { key: ws.apiKey });
    expect(list.body.items.map((r: { name: string }) => r.name)).toEqual(["a", "b", "c"]);
  });

  it("another workspace's rule is 404 NOT_FOUND for read, update and delete, and never listed", async () => {
    const owner = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    const { id } = (await app.request("POST", "/v1/rules", { key: owner.apiKey, body: blockXX })).body;
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "stolen" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await app.request(method, `/v1/rules/${id}`, { key: other.apiKey, body });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await app.request("GET", "/v1/rules", { key: other.apiKey })).body.items).toEqual([]);
    expect((await app.request("GET", `/v1/rules/${id}`, { key: owner.apiKey })).body.name).toBe("Block XX");
  });

  it("a Free workspace gets 403 CAPABILITY_REQUIRED on every rules route", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    for (const [method, path, body] of [
      ["GET", "/v1/rules"],
      ["POST", "/v1/rules", blockXX],
      ["GET", "/v1/rules/rule_x"],
      ["PATCH", "/v1/rules/rule_x", { name: "x" }],
      ["DELETE", "/v1/rules/rule_x"],
    ] as const) {
      const res = await app.request(method, path, { key: ws.apiKey, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe("CAPABILITY_REQUIRED");
    }
  });

  it("the rule limit answers 409 CONFLICT", async () => {
    process.env.SERVICE_RULES_MAX = "2";
    const ws = await app.seedWorkspace();
    expect((await app.request("POST", "/v1/rules", { key: ws.apiKey, body: blockXX })).status).toBe(200);
    expect((await app.request("POST", "/v1/rules", { key: ws.apiKey, body: blockXX })).status).toBe(200);
    const third = await app.request("POST", "/v1/rules", { key: ws.apiKey, body: blockXX });
    expect(third.status).toBe(409);
    expect(third.body.error).toEqual({
      code: "CONFLICT",
      message: "This workspace already has the maximum of 2 rules; delete one first.",
    });
  });

  it.each([
    ["an unknown field", [{ field: "planet", op: "eq", value: "mars" }], /conditions\.0\.field: Invalid option/],
    [
      "an operator that does not apply",
      [{ field: "tor_exit", op: "gt", value: true }],
      /op "gt" does not apply to tor_exit/,
    ],
    ["a wrong value type", [{ field: "score", op: "gte", value: "high" }], /score gte needs a number/],
    ["a bad CIDR", [{ field: "ip", op: "cidr", value: "10.0.0.0/99" }], /CIDR/],
    ["a bad country code", [{ field: "country", op: "in", value: ["USA"] }], /two-letter/],
    // Judged as /assess judges billing_country (isCountryCode): two letters that name no country are refused too.
    [
      "a code that names no country",
      [{ field: "country", op: "eq", value: "XX" }],
      /^conditions\.0: country eq needs a two-letter ISO 3166-1 country code \(XX names no country\)$/,
    ],
    ["the EU", [{ field: "billing_country", op: "in", value: ["DE", "EU"] }], /\(EU names no country\)/],
    ["UK, read as GB", [{ field: "billing_country", op: "neq", value: "uk" }], /\(uk is GB in ISO 3166-1\)/],
    ["an empty list", [], /INVALID|at least|>=1|too small/i],
  ])("conditions with %s are 400 INVALID_REQUEST", async (_name, conditions, message) => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/rules", { key: ws.apiKey, body: { ...blockXX, conditions } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toMatch(message);
  });

  it("reads, changes and evaluates a rule saved before its country code was judged (XX), and keeps its value", async () => {
    const ws = await app.seedWorkspace();
    const id = "rule_legacy_xx";
    await app.db.rule.create({
      data: {
        id,
        workspaceId: ws.workspaceId,
        name: "Old",
        action: "review",
        conditions: [{ field: "country", op: "eq", value: "XX" }],
      },
    });
    const read = await app.request("GET", `/v1/rules/${id}`, { key: ws.apiKey });
    expect(read.status).toBe(200);
    expect(read.body.conditions).toEqual([{ field: "country", op: "eq", value: "XX" }]);
    const renamed = await app.request("PATCH", `/v1/rules/${id}`, { key: ws.apiKey, body: { name: "Older" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Older", conditions: [{ field: "country", op: "eq", value: "XX" }] });
    expect((await app.request("GET", "/v1/rules", { key: ws.apiKey })).status).toBe(200);
  });

  it("a PATCH with no field to change is 400, and a bad action is 400", async () => {
    const ws = await app.seedWorkspace();
    const { id } = (await app.request("POST", "/v1/rules", { key: ws.apiKey, body: blockXX })).body;
    expect((await app.request("PATCH", `/v1/rules/${id}`, { key: ws.apiKey, body: {} })).status).toBe(400);
    expect((await app.request("PATCH", `/v1/rules/${id}`, { key: ws.apiKey, body: { action: "nuke" } })).status).toBe(
      400,
    );
  });
});
