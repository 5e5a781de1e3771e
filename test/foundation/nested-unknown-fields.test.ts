// Unknown keys of the objects the service defines inside a body are refused as a top-level unknown field is, not
// dropped: a list item's misspelled `expire_at` made an item that never expired, a condition's `negate: true` a rule
// that matched the opposite of what its author meant, a package's `dev` flag or an alert setting's `available` were
// thrown away unseen. Each is 400 INVALID_REQUEST naming the key with its path and what its object takes, and changes
// nothing. The open objects stay open: `/assess`'s `metadata` and the `device` signals a browser collects. Both stores.
import { describe, expect, it } from "vitest";
import { appRouter } from "../../server/api/root";
import { CHROME_UA, keyedCalls, useAssessmentApp } from "../assessment/setup";

const { app } = useAssessmentApp();

const { req, ok } = keyedCalls(app);

async function refused(key: string, method: string, path: string, body: unknown, message: RegExp) {
  const res = await req(key, method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe("INVALID_REQUEST");
  expect(res.body.error.message).toMatch(message);
}

describe("an unknown key inside a body's object", () => {
  it("a list item's: refused, the list stays empty", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const list = await ok(ws.apiKey, "POST", "/v1/lists", { name: "blocked_ips", kind: "ip" });
    await refused(
      ws.apiKey,
      "POST",
      `/v1/lists/${list.id}/items`,
      { items: [{ value: "203.0.113.7" }, { value: "203.0.113.8", expire_at: "2099-01-01" }] },
      /^Received unknown parameter: items\.1\.expire_at\. items\.1 takes: expires_at, note, value\.$/,
    );
    expect((await ok(ws.apiKey, "GET", `/v1/lists/${list.id}/items`)).items).toEqual([]);
    await ok(ws.apiKey, "POST", `/v1/lists/${list.id}/items`, { items: [{ value: "203.0.113.8", note: "seen" }] });
  });

  it("a rule condition's: refused on create, update and backtest; the rule is unchanged", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const conditions = [{ field: "country", op: "eq", value: "DE", negate: true }];
    await refused(
      ws.apiKey,
      "POST",
      "/v1/rules",
      { name: "German IPs", action: "review", conditions },
      /^Received unknown parameter: conditions\.0\.negate\. conditions\.0 takes: field, op, value\.$/,
    );
    expect((await ok(ws.apiKey, "GET", "/v1/rules")).items).toEqual([]);
    const rule = await ok(ws.apiKey, "POST", "/v1/rules", {
      name: "German IPs",
      action: "review",
      conditions: [{ field: "country", op: "eq", value: "DE" }],
    });
    await refused(ws.apiKey, "PATCH", `/v1/rules/${rule.id}`, { conditions }, /conditions\.0\.negate/);
    await refused(ws.apiKey, "POST", "/v1/rules/backtest", { action: "review", conditions }, /conditions\.0\.negate/);
    expect(await ok(ws.apiKey, "GET", `/v1/rules/${rule.id}`)).toEqual(rule);
  });

  it("a monitor's check, package, thresholds and email alerts: refused, no monitor made", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const packages = [{ ecosystem: "npm", name: "left-pad", version: "1.3.0" }];
    const base = { target: "acme/shop", checks: [{ type: "packages", packages }], interval: "24h" };
    for (const [body, message] of [
      [
        { ...base, checks: [{ type: "packages", packages: [{ ...packages[0], dev: true }] }] },
        /^Received unknown parameter: checks\.0\.packages\.0\.dev\. checks\.0\.packages\.0 takes: ecosystem, name, version\.$/,
      ],
      [
        { ...base, checks: [{ type: "packages", packages, selector: ["s1"] }] },
        /checks\.0\.selector\b.*takes: .*selectors/,
      ],
      [
        { ...base, thresholds: { tls_expiry_day: [3] } },
        /thresholds\.tls_expiry_day\. thresholds takes: tls_expiry_days\./,
      ],
      [{ ...base, email_alerts: { enabled: true, available: true } }, /email_alerts\.available\. email_alerts takes: /],
    ] as const)
      await refused(ws.apiKey, "POST", "/v1/monitors", body, message);
    expect((await ok(ws.apiKey, "GET", "/v1/monitors")).items).toEqual([]);
    expect(await app().used(ws.workspaceId)).toBe(0);
    const made = await ok(ws.apiKey, "POST", "/v1/monitors", base);
    await refused(
      ws.apiKey,
      "PATCH",
      `/v1/monitors/${made.id}`,
      { thresholds: { tls_expiry: [3] } },
      /thresholds\.tls_expiry\b/,
    );
  });

  it("a case's add_to_list: refused, the case stays open and the list empty", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const key = ws.apiKey;
    await ok(key, "POST", "/v1/rules", { name: "Review", action: "review", expression: 'user_id == "mallory"' });
    const list = await ok(key, "POST", "/v1/lists", { name: "bad_users", kind: "user" });
    await ok(key, "POST", "/v1/assess", { event: "login", ip: "91.0.0.1", user_id: "mallory", user_agent: CHROME_UA });
    const c = (await ok(key, "GET", "/v1/cases")).items[0];
    await refused(
      key,
      "POST",
      `/v1/cases/${c.id}/resolve`,
      { resolution: "fraud", add_to_list: { list_id: list.id, value: "user", expire: "2099-01-01" } },
      /^Received unknown parameter: add_to_list\.expire\. add_to_list takes: expires_at, list_id, value\.$/,
    );
    expect((await ok(key, "GET", `/v1/cases/${c.id}`)).status).toBe("open");
    expect((await ok(key, "GET", `/v1/lists/${list.id}/items`)).items).toEqual([]);
  });

  it("the open objects keep any keys: /assess's metadata and device signals", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    await ok(ws.apiKey, "POST", "/v1/assess", {
      event: "login",
      ip: "91.0.0.1",
      user_agent: CHROME_UA,
      metadata: { order: "A-1", any_key_of_yours: "web" },
      device: { visitor_id: "visitor-1", a_signal_of_a_newer_collector: 1 },
    });
  });
});

describe("every procedure's input", () => {
  type Def = { type: string; [key: string]: unknown };
  const defOf = (s: unknown): Def | null => (s as { _zod?: { def?: Def } } | null)?._zod?.def ?? null;

  /** The paths of the objects below the top level of `schema` that take keys they do not declare. */
  function openObjects(schema: unknown): string[] {
    const out = new Set<string>();
    const seen = new Set<unknown>();
    const walk = (s: unknown, path: string) => {
      const def = defOf(s);
      if (!def || seen.has(s)) return;
      seen.add(s);
      if (def.type === "object") {
        if (path !== "" && defOf(def.catchall)?.type !== "never") out.add(path);
        for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) walk(v, path ? `${path}.${k}` : k);
        return;
      }
      for (const inner of ["innerType", "in", "out", "left", "right", "valueType"]) walk(def[inner], path);
      walk(def.element, `${path}[]`);
      if (def.type === "union") for (const o of def.options as unknown[]) walk(o, path);
      if (def.type === "lazy") walk((def.getter as () => unknown)(), path);
    };
    walk(schema, "");
    return [...out];
  }

  it("refuses unknown keys in every object below the top level but the device signals a browser collects", () => {
    const procedures = (
      appRouter as unknown as { _def: { procedures: Record<string, { _def: { inputs?: unknown[] } }> } }
    )._def.procedures;
    const open = Object.entries(procedures).flatMap(([name, p]) =>
      (p._def.inputs ?? []).flatMap((input) => openObjects(input).map((path) => `${name} ${path}`)),
    );
    expect(open.length).toBeGreaterThan(0);
    expect(open.filter((o) => !/^(assessment\.assess|device\.check) device(\.|$)/.test(o))).toEqual([]);
  });
});
