// POST /v1/assess reaches the REST door (server/api/rest/plain-door.ts) two ways: from node:http's values, as the
// production server hands it every /v1 request, and as a web Request, through the route's handler. Either way the
// door calls the assessment's procedure itself, so it walks the one ladder (server/api/ladder.ts) with the
// velocity read the procedure declares (readAlongside) carried in the reservation's statement. The same requests,
// sent each way into two workspaces of the same plan and history, must get the same answers (status, every header
// but the request id, the body with its request id masked) and leave the same things in the store: units, ledger
// rows, history entries, events and the request outcomes the analytics count.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { handleRestRequest } from "../../server/api/rest/handler";
import { answerPlain } from "../../server/api/rest/plain-door";
import { flushLookupHistory } from "../../server/history/history";
import { flushRequestOutcomes } from "../../server/analytics/request-outcomes";
import { assessMetering } from "../../server/api/routers/assessment/assess";
import { CHROME_UA, CLEAN_IP, HEADLESS_UA, TOR_HOSTING_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

type Door = "plain" | "route";
interface Sent {
  key?: string;
  /** A JSON value, or the raw text of the body. */
  body?: unknown;
  headers?: Record<string, string>;
}
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function send(door: Door, s: Sent): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json", ...s.headers };
  if (s.key !== undefined) headers.authorization = `Bearer ${s.key}`;
  const body = typeof s.body === "string" ? s.body : JSON.stringify(s.body ?? {});
  if (door === "plain") {
    const plainHeaders = { ...headers, "content-length": String(Buffer.byteLength(body)) };
    const a = await answerPlain({
      method: "POST",
      url: "/v1/assess",
      headers: plainHeaders,
      body: Buffer.from(body),
    });
    return { status: a.status, headers: a.headers, text: a.body };
  }
  const res = await handleRestRequest(
    new Request("http://127.0.0.1:3000/v1/assess", { method: "POST", headers, body }),
  );
  return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
}

/** The answer without what differs by request: its request id (header and body), the workspace's ids, the time. */
function comparable(a: Answer, ids: string[]): { status: number; headers: Record<string, string>; text: string } {
  const { "x-request-id": requestId, ...headers } = a.headers;
  expect(requestId).toMatch(/^req_/);
  let text = a.text.split(requestId!).join("<request>");
  for (const id of ids) text = text.split(id).join("<workspace>");
  // The moment of the answer (checked_at, the workspace's evidence read): the two doors answer moments apart.
  text = text.replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, (t) =>
    Math.abs(Date.parse(t.slice(1, -1)) - Date.now()) < 600_000 ? '"<now>"' : t,
  );
  return { status: a.status, headers, text };
}

const login = (i: number, extra: Record<string, unknown> = {}) => ({
  event: "login",
  ip: CLEAN_IP,
  email: `user${i % 3}@gmail.com`,
  user_id: `u${i % 3}`,
  device_id: `d${i % 2}`,
  user_agent: CHROME_UA,
  ...extra,
});

/** One session's requests: successes, refusals at each step of the ladder, and the answers' own headers. */
const SCRIPT: { name: string; sent: Sent }[] = [
  {
    name: "a clean signup",
    sent: { body: { event: "signup", ip: CLEAN_IP, email: "a@gmail.com", user_agent: CHROME_UA } },
  },
  { name: "logins of three accounts", sent: { body: login(0) } },
  { name: "a second login", sent: { body: login(1) } },
  { name: "a failed login", sent: { body: login(2, { status: "failed" }) } },
  { name: "a login after the failure", sent: { body: login(2) } },
  {
    name: "a high-risk checkout (Tor, headless)",
    sent: {
      body: {
        event: "checkout",
        ip: TOR_HOSTING_IP,
        email: "x@mailinator.com",
        user_agent: HEADLESS_UA,
        amount: 900,
        currency: "USD",
      },
    },
  },
  { name: "a body that is not JSON", sent: { body: "{" } },
  {
    name: "JSON labelled as text",
    sent: { body: JSON.stringify(login(0)), headers: { "content-type": "text/plain" } },
  },
  { name: "a JSON array", sent: { body: "[]" } },
  { name: "an empty body", sent: { body: "" } },
  { name: "an empty object", sent: { body: {} } },
  { name: "an address that is not one", sent: { body: { event: "login", ip: "not-an-ip" } } },
  { name: "an unknown event", sent: { body: { event: "purchase", ip: CLEAN_IP } } },
  { name: "a NUL in metadata", sent: { body: { ...login(0), metadata: { note: "a\u0000b" } } } },
  { name: "a tab in metadata (free text)", sent: { body: { ...login(0), metadata: { note: "a\tb" } } } },
  { name: "a control character in user_id", sent: { body: login(0, { user_id: "u\u0007" }) } },
  { name: "the client's correlation id", sent: { body: login(1), headers: { "x-request-id": "client-42" } } },
  { name: "a correlation id that is refused", sent: { body: login(1), headers: { "x-request-id": "bad id" } } },
];

describe("POST /v1/assess through the plain door and through the route", () => {
  it("has no ladder of its own: the door calls the procedure, which declares its read alongside the reservation", () => {
    const door = readFileSync(path.join(process.cwd(), "server/api/rest/plain-door.ts"), "utf8");
    for (const step of ["admitCaller", "validateInput", "parseInput", "chargeAndRun", "assess("])
      expect(door, step).not.toContain(step);
    expect(door).toContain("appRouter._def.procedures");
    expect(assessMetering.readAlongside).toBeTypeOf("function");
  });

  it("answer a session of requests alike and leave the same things in the store", async () => {
    const a = await app().seedWorkspace({ plans: ["suite_business"] });
    const b = await app().seedWorkspace({ plans: ["suite_business"] });
    let charged = 0;
    for (const { name, sent } of SCRIPT) {
      const plain = await send("plain", { ...sent, key: a.apiKey });
      const route = await send("route", { ...sent, key: b.apiKey });
      if (route.status === 200) charged++;
      expect(comparable(plain, [a.workspaceId]), name).toEqual(comparable(route, [b.workspaceId]));
      expect(plain.status, name).toBeLessThan(500);
    }
    const statuses = await Promise.all(SCRIPT.map(({ sent }) => send("plain", { ...sent, key: a.apiKey })));
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set([200, 400]));

    await flushLookupHistory();
    await flushRequestOutcomes();
    const db = app().db;
    const stored = async (workspaceId: string) => ({
      used: await app().used(workspaceId),
      ledger: await app().ledgerCount(workspaceId),
      history: (await db.lookupHistory.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } })).map(
        (h) => ({
          endpoint: h.endpoint,
          target: h.target,
          summary: h.summary,
          units: h.units,
          status: h.status,
          code: h.code,
        }),
      ),
      events: (await db.event.findMany({ where: { workspaceId, type: "assessment" } }))
        .map((e) => ({ ip: e.ip, email: e.email, subject: e.subject, device: e.device }))
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
      outcomes: (await db.requestOutcomeDaily.findMany({ where: { workspaceId } }))
        .map((o) => ({ procedure: o.procedure, status: o.status, code: o.code, count: o.count }))
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    });
    const [sa, sb] = await Promise.all([stored(a.workspaceId), stored(b.workspaceId)]);
    // The second round went through the plain door only.
    expect(sa.used).toBe(sb.used * 2);
    expect(sa.ledger).toBe(sb.ledger * 2);
    expect(sa.history.slice(0, sb.history.length)).toEqual(sb.history);
    // Six assessments, the tab in metadata and the two correlation ids were answered; the rest refused with 400.
    expect(charged).toBe(9);
    expect(sb.used).toBe(charged);
    expect(sb.outcomes.find((o) => o.status === 200)?.count).toBe(charged);
    expect(sb.outcomes.find((o) => o.status === 400)?.count).toBe(SCRIPT.length - charged);
    expect(sa.outcomes.map((o) => ({ ...o, count: o.count / 2 }))).toEqual(sb.outcomes);
    expect(sa.events.length).toBe(sb.events.length * 2);
  });

  it("refuse alike before any unit: no key, an unknown key, two keys, a plan without the capability, no units left", async () => {
    const free = await app().seedWorkspace({ plans: ["free"] });
    const other = await app().seedWorkspace({ plans: ["suite_business"] });
    const used = await app().used(other.workspaceId);
    const cases: { name: string; sent: Sent; status: number; code: string }[] = [
      { name: "no key", sent: { body: login(0) }, status: 401, code: "UNAUTHORIZED" },
      { name: "an unknown key", sent: { key: "sk_live_nope", body: login(0) }, status: 401, code: "UNAUTHORIZED" },
      {
        name: "two keys",
        sent: { key: other.apiKey, body: login(0), headers: { "x-api-key": other.apiKey } },
        status: 401,
        code: "UNAUTHORIZED",
      },
      { name: "a Free plan", sent: { key: free.apiKey, body: login(0) }, status: 403, code: "CAPABILITY_REQUIRED" },
      {
        name: "a Free plan with bad input",
        sent: { key: free.apiKey, body: "{" },
        status: 403,
        code: "CAPABILITY_REQUIRED",
      },
    ];
    for (const { name, sent, status, code } of cases) {
      const plain = await send("plain", sent);
      const route = await send("route", sent);
      expect(plain.status, name).toBe(status);
      expect(JSON.parse(plain.text).error.code, name).toBe(code);
      expect(comparable(plain, []), name).toEqual(comparable(route, []));
    }
    expect(await app().used(other.workspaceId)).toBe(used);
    expect(await app().used(free.workspaceId)).toBe(0);
  });

  it("refuse alike a key paused or revoked after its workspace's requests put it in the key cache", async () => {
    for (const [status, answer, code] of [
      ["paused", 403, "API_KEY_PAUSED"],
      ["revoked", 401, "UNAUTHORIZED"],
    ] as const) {
      const a = await app().seedWorkspace({ plans: ["suite_business"] });
      const b = await app().seedWorkspace({ plans: ["suite_business"] });
      expect((await send("plain", { key: a.apiKey, body: login(0) })).status).toBe(200);
      expect((await send("route", { key: b.apiKey, body: login(0) })).status).toBe(200);
      await app().db.apiKey.updateMany({ where: { id: { in: [a.apiKeyId, b.apiKeyId] } }, data: { status } });
      const plain = await send("plain", { key: a.apiKey, body: login(1) });
      const route = await send("route", { key: b.apiKey, body: login(1) });
      expect(plain.status, status).toBe(answer);
      expect(JSON.parse(plain.text).error.code, status).toBe(code);
      expect(comparable(plain, [a.workspaceId]), status).toEqual(comparable(route, [b.workspaceId]));
      expect(await app().used(a.workspaceId)).toBe(1);
      expect(await app().used(b.workspaceId)).toBe(1);
    }
  });

  it("refuse alike with 402 when the month's units are spent, and keep the allowance as it was", async () => {
    const probe = await app().seedWorkspace({ plans: ["suite_business"] });
    const limit = Number((await send("plain", { key: probe.apiKey, body: login(0) })).headers["x-service-quota-limit"]);
    expect(limit).toBeGreaterThan(0);
    const a = await app().seedWorkspace({ plans: ["suite_business"], usedUnits: limit });
    const b = await app().seedWorkspace({ plans: ["suite_business"], usedUnits: limit });
    const plain = await send("plain", { key: a.apiKey, body: login(1) });
    const route = await send("route", { key: b.apiKey, body: login(1) });
    expect(plain.status).toBe(402);
    expect(JSON.parse(plain.text).error.code).toBe("QUOTA_EXCEEDED");
    expect(comparable(plain, [a.workspaceId])).toEqual(comparable(route, [b.workspaceId]));
    expect(await app().used(a.workspaceId)).toBe(limit);
    expect(await app().ledgerCount(a.workspaceId)).toBe(0);
  });
});
