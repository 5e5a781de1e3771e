// Unknown fields are refused, not dropped (issue 42, item 4): a top-level field of the input that the procedure does
// not declare is 400 INVALID_REQUEST naming it ("Received unknown parameter: emial", as Stripe says), before any
// unit, on every route (a table over every route that takes a body, found by itself), through both doors of
// POST /v1/assess and on the dashboard. Open maps such as `metadata` keep whatever keys they hold: only the top level
// is judged. Both stores: DATABASE_URL selects PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { handleRestRequest } from "../../server/api/rest/handler";
import { appRouter } from "../../server/api/root";
import type { Meta } from "../../server/api/trpc";
import { flushLookupHistory } from "../../server/history/history";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp, type TestApp } from "../harness";
import { routeSamples } from "./route-samples";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

async function expectNothingCharged(workspaceId: string) {
  expect(await app.used(workspaceId)).toBe(0);
  expect(await app.ledgerCount(workspaceId)).toBe(0);
  await flushLookupHistory();
  expect(await app.db.lookupHistory.count({ where: { workspaceId } })).toBe(0);
}

const refused = (message: RegExp, code = "INVALID_REQUEST") => ({
  error: { code, message: expect.stringMatching(message) },
});

/** POST /v1/assess through the route's handler (the door takes only a declared length). */
async function assessThroughRoute(key: string, body: unknown) {
  const text = new TextEncoder().encode(JSON.stringify(body));
  const res = await handleRestRequest(
    new Request("http://127.0.0.1:3000/v1/assess", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(text);
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit),
  );
  return { status: res.status, body: (await res.json()) as any };
}

describe("POST /v1/assess", () => {
  const cases: [string, Record<string, unknown>, RegExp, string?][] = [
    [
      "a misspelled email",
      { emial: "ann@example.com" },
      /^Received unknown parameter: emial \(did you mean email\?\)\. This operation takes: .*\bemail\b/,
    ],
    [
      // `payment` is a field since issue 45 (BIN and last four); a card number in it is refused with its own code.
      "a payment object with a card number",
      { payment: { card_number: "4242424242424242", cvc: "123" } },
      /^payment: holds what looks like a full card number: send only the card's BIN/,
      "INVALID_INPUT",
    ],
    // The card number's refusal wins over any other problem of the same input (MetaContract.neverSent).
    [
      "a card number beside an unknown field",
      { emial: "a@example.com", payment: { card_number: "4242 4242 4242 4242" } },
      /^payment: holds what looks like a full card number: send only the card's BIN/,
      "INVALID_INPUT",
    ],
    [
      "a card number beside a control character",
      { user_id: "u\u0001", payment: { bin: "4242424242424242", last4: "4242" } },
      /^payment: holds what looks like a full card number: send only the card's BIN/,
      "INVALID_INPUT",
    ],
    ["two of them", { emial: "a@example.com", usr_id: "u1" }, /^Received unknown parameters: emial .*, usr_id/],
  ];

  it.each(cases)("%s is 400 through the plain door, charging nothing", async (_label, extra, message, code) => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: "8.8.8.8", ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refused(message, code));
    await expectNothingCharged(ws.workspaceId);
  });

  it.each(cases)("%s is 400 through the route, charging nothing", async (_label, extra, message, code) => {
    const ws = await app.seedWorkspace();
    const res = await assessThroughRoute(ws.apiKey, { event: "login", ip: "8.8.8.8", ...extra });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refused(message, code));
    await expectNothingCharged(ws.workspaceId);
  });

  it("a card number beside an unknown field is 400 INVALID_INPUT through the dashboard's tRPC door too", async () => {
    const { owner } = await ownerAndMember(app.db, "card", ["suite_business"]);
    const r = await call(
      owner,
      "assessment.assess",
      { event: "checkout", ip: "8.8.8.8", emial: "a@example.com", payment: { number: "4242424242424242" } },
      "mutation",
    );
    expect(r.status).toBe(400);
    expect(r.code).toBe("INVALID_INPUT");
    expect(r.message).toMatch(/^payment: holds what looks like a full card number/);
    expect(r.message).not.toContain("4242");
    await expectNothingCharged(owner.workspaceId);
  });

  it("never echoes a card number it refuses", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "checkout", ip: "8.8.8.8", payment: { card_number: "4242424242424242" } },
    });
    expect(res.text).not.toContain("4242");
  });

  it("judges only the top level: metadata keeps any keys", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "form", ip: "8.8.8.8", email: "ann@example.com", metadata: { emial: "x", plan: "pro" } },
    });
    expect(res.status).toBe(200);
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("still lets the plan checks answer first (spec order)", async () => {
    const free = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("POST", "/v1/assess", {
      key: free.apiKey,
      body: { event: "login", ip: "8.8.8.8", emial: "a@example.com" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("CAPABILITY_REQUIRED");
  });
});

describe("every route that takes a body refuses an unknown field with 400, charging nothing", () => {
  const withBody = routeSamples().filter((s) => s.method !== "GET" && s.method !== "DELETE");
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;
  const rawBodyRoutes = new Set(Object.keys(procedures).filter((p) => procedures[p]!._def.meta?.rawBody));
  it("finds the routes by itself", () => {
    expect(withBody.map((s) => `${s.method} ${s.route.template}`)).toEqual(
      expect.arrayContaining(["POST /assess", "POST /lists", "POST /rules", "POST /webhooks", "POST /jobs"]),
    );
    expect(rawBodyRoutes).toContain("vulnerabilities.scan");
  });

  it.each(withBody.map((s) => [`${s.method} ${s.route.template}`, s] as const))("%s", async (_name, s) => {
    const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
    const key = s.keyOptional ? undefined : ws.apiKey;
    // A raw-body route's body is one field's text (a lockfile): its other fields come from the query.
    const res = rawBodyRoutes.has(s.route.procedurePath)
      ? await app.request(s.method, `${s.path}?surplus_field=1`, {
          key,
          body: "x",
          headers: { "Content-Type": "text/plain" },
        })
      : await app.request(s.method, s.path, {
          key,
          body: { ...(s.body as Record<string, unknown>), surplus_field: { card_number: "4242424242424242" } },
        });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: refused(/^Received unknown parameter: surplus_field\./),
    });
    await expectNothingCharged(ws.workspaceId);
  });
});

describe("query parameters are judged the same way", () => {
  it("an unknown query parameter is 400, a declared one is read", async () => {
    const ws = await app.seedWorkspace();
    const bad = await app.request("GET", "/v1/lists?limt=2", { key: ws.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(refused(/^Received unknown parameter: limt \(did you mean limit\?\)/));
    const ok = await app.request("GET", "/v1/lists?limit=2", { key: ws.apiKey });
    expect(ok.status).toBe(200);
  });

  it("a parameter that takes one value, sent twice, is 400 naming it and costs nothing (not read as the first)", async () => {
    const ws = await app.seedWorkspace();
    for (const path of [
      "/v1/dns/lookup?domain=example.com&type=A&type=MX",
      "/v1/vulnerabilities/kev/?limit=1&limit=2",
      "/v1/email/security?domain=example.com&selectors=a&selectors=b",
    ]) {
      const res = await app.request("GET", path, { key: ws.apiKey });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual(
        refused(/^(type|limit|selectors): the query parameter was sent 2 times; send it once\.$/),
      );
    }
    await expectNothingCharged(ws.workspaceId);
  });
});

describe("what an operation takes, as the refusal lists it", () => {
  it("leaves out the parameters of the path, which no body can carry", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const cases: [string, string, unknown, string][] = [
      ["POST", "/v1/rule-packs/card_testing/enable", { mode: "shadow", modee: 1 }, "modee (did you mean mode?)"],
      ["POST", "/v1/webhooks/wh_unknown/test", { foo: 1 }, "foo"],
      // `idd` is not offered the path's `id`.
      ["PATCH", "/v1/rules/rul_unknown", { idd: "a" }, "idd"],
    ];
    const takes = [
      "This operation takes: mode.",
      "This operation takes: no parameters.",
      "This operation takes: action, conditions, enabled, expression, mode, name, priority.",
    ];
    for (const [i, [method, path, body, named]] of cases.entries()) {
      const res = await app.request(method, path, { key: ws.apiKey, body });
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toBe(`Received unknown parameter: ${named}. ${takes[i]}`);
    }
    await expectNothingCharged(ws.workspaceId);
  });

  it("leaves out a raw body's field, which is the body itself and no parameter", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/vulnerabilities/scan?foo=1", {
      key: ws.apiKey,
      body: "lodash@4.17.21\n",
      headers: { "Content-Type": "text/plain" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      "Received unknown parameter: foo. This operation takes: base_ref, fail_on_new, format, path, project, ref.",
    );
    await expectNothingCharged(ws.workspaceId);
  });
});

describe("numbers in the query are written in decimal digits", () => {
  it("refuses hexadecimal, exponents, padding, a plus sign and an empty value, and costs nothing", async () => {
    const ws = await app.seedWorkspace();
    // Each of these was read by Number(): 16, 100, 5, 5 and 0 (an offset of 0 answered).
    for (const [path, key, sent] of [
      ["/v1/vulnerabilities/kev/?limit=0x10", "limit", "0x10"],
      ["/v1/vulnerabilities/kev/?limit=1e2", "limit", "1e2"],
      ["/v1/vulnerabilities/kev/?limit=%205", "limit", " 5"],
      ["/v1/lists?limit=%2B5", "limit", "+5"],
      // A "+" is echoed as sent, not as the space a form decoding reads (walk #20).
      ["/v1/lists?limit=+5", "limit", "+5"],
      ["/v1/domain/example.com/subdomains?offset=", "offset", ""],
    ] as const) {
      const res = await app.request("GET", path, { key: ws.apiKey });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual(
        refused(
          new RegExp(
            `^${key}: expected a number written in decimal digits, got ${JSON.stringify(sent).replace(/[+]/g, "\\+")}\\.$`,
          ),
        ),
      );
    }
    // Many digits are still digits: the schema's bound answers.
    const huge = await app.request("GET", "/v1/vulnerabilities/kev/?limit=99999999999999999999", { key: ws.apiKey });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toMatch(/^limit: must be at most /);
    await expectNothingCharged(ws.workspaceId);
    const ok = await app.request("GET", "/v1/vulnerabilities/kev/?limit=16", { key: ws.apiKey });
    expect(ok.status).toBe(200);
  });
});

describe("the dashboard", () => {
  it("refuses an unknown field of a mutation with 400 INVALID_REQUEST", async () => {
    const { owner } = await ownerAndMember(app.db, "unknown-fields", ["suite_business"]);
    const res = await call(owner, "lists.create", { name: "vip", kind: "email", knd: "ip" }, "mutation");
    expect(res.status).toBe(400);
    expect(res.code).toBe("INVALID_REQUEST");
    expect(res.message).toMatch(/^Received unknown parameter: knd \(did you mean kind\?\)/);
  });

  it("takes the cursor and direction its infinite queries add", async () => {
    const { owner } = await ownerAndMember(app.db, "unknown-fields-pages", ["suite_business"]);
    const res = await call(owner, "workspace.events", { limit: 20, direction: "forward" }, "query");
    expect(res.status).toBe(200);
  });
});
