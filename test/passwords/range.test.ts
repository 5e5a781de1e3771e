// GET /v1/passwords/range/{prefix}: the Pwned Passwords range format from the shipped common-password list, found by
// a known common password's SHA-1; padding with Add-Padding; bad prefixes are 400 and free; unmetered but rate
// limited, and the prefix is kept nowhere. Through /v1 and the dashboard's tRPC door.
import { createHash } from "node:crypto";
import { dictionary } from "@zxcvbn-ts/language-common";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { captureLogLines, silenceLogs } from "../log-lines";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterEach(() => {
  delete process.env.SERVICE_PASSWORDS_RANGE_RATE_LIMIT;
});

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex").toUpperCase();
const LIST = dictionary["passwords-common"];
/** Each listed password as typed three ways: as listed (lower case), with a capital first letter, in capitals. */
const SPELLED = LIST.flatMap((p, rank) =>
  [...new Set([p, p.charAt(0).toUpperCase() + p.slice(1), p.toUpperCase()])].map((s) => [s, rank] as const),
);
const range = (key: string, prefix: string, headers?: Record<string, string>) =>
  app.request("GET", `/v1/passwords/range/${prefix}`, { key, headers });

describe("GET /v1/passwords/range/{prefix}", () => {
  it("lists a common password's hash suffix with its commonness, in either case of the prefix", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const hash = sha1("password");
    for (const prefix of [hash.slice(0, 5), hash.slice(0, 5).toLowerCase()]) {
      const r = await range(ws.apiKey, prefix);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^text\/plain/);
      const lines = r.text.split("\r\n");
      for (const line of lines) expect(line).toMatch(/^[0-9A-F]{35}:[1-9]\d*$/);
      // Every listed password with this prefix, and only those; "password" ranks second, so its count is N - 1.
      const expected = SPELLED.map(([p, rank]) => [sha1(p), LIST.length - rank] as const)
        .filter(([h]) => h.startsWith(hash.slice(0, 5)))
        .map(([h, n]) => `${h.slice(5)}:${n}`)
        .sort();
      expect(lines).toEqual(expected);
      expect(lines).toContain(`${hash.slice(5)}:${LIST.length - LIST.indexOf("password")}`);
    }
    // Unmetered: no unit, no ledger row, no history entry (the prefix is kept nowhere).
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    expect(await app.db.lookupHistory.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("lists a common password as people capitalise it, since a client hashes it as typed", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const listed = async (password: string) => {
      const hash = sha1(password);
      const r = await range(ws.apiKey, hash.slice(0, 5));
      return r.text.split("\r\n").some((l) => l.startsWith(`${hash.slice(5)}:`));
    };
    for (const password of ["password1", "Password1", "PASSWORD1", "PASSWORD", "Qwerty123", "P@ssw0rd", "Iloveyou"])
      expect(await listed(password), password).toBe(true);
    // Other capitalisations, and an uncommon password, are not listed.
    for (const password of ["pAssword1", "passworD", "Tr0ub4dor&3xyzzy"])
      expect(await listed(password), password).toBe(false);
  });

  it("is documented as a text/plain answer, not a JSON string", async () => {
    const doc = (await app.request("GET", "/v1/openapi.json")).body as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>;
    };
    expect(Object.keys(doc.paths["/passwords/range/{prefix}"]!.get.responses["200"]!.content)).toEqual(["text/plain"]);
  });

  it("answers an empty body for a prefix no listed password has", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const used = new Set(SPELLED.map(([p]) => sha1(p).slice(0, 5)));
    let free = 0;
    while (used.has(free.toString(16).toUpperCase().padStart(5, "0"))) free++;
    const r = await range(ws.apiKey, free.toString(16).padStart(5, "0"));
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
  });

  it("pads with zero-count suffixes to 800-1,000 lines with Add-Padding: true, keeping the real ones", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const hash = sha1("123456");
    const plain = (await range(ws.apiKey, hash.slice(0, 5))).text.split("\r\n");
    const padded = await range(ws.apiKey, hash.slice(0, 5), { "Add-Padding": "true" });
    expect(padded.status).toBe(200);
    const lines = padded.text.split("\r\n");
    expect(lines.length).toBeGreaterThanOrEqual(800);
    expect(lines.length).toBeLessThanOrEqual(1000);
    for (const line of lines) expect(line).toMatch(/^[0-9A-F]{35}:\d+$/);
    expect(lines.filter((l) => !l.endsWith(":0"))).toEqual(plain);
    expect(lines).toEqual([...lines].sort());
    expect(new Set(lines.map((l) => l.slice(0, 35))).size).toBe(lines.length);
    // Any other value of the header is no padding.
    expect((await range(ws.apiKey, hash.slice(0, 5), { "Add-Padding": "no" })).text.split("\r\n")).toEqual(plain);
  });

  it.each(["5BAA", "5BAA61", "GGGGG", "5baa-", "%205BAA6", "5BAA6%0A"])(
    "refuses the prefix %s with 400 INVALID_REQUEST",
    async (prefix) => {
      const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
      const r = await range(ws.apiKey, prefix);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("INVALID_REQUEST");
      expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    },
  );

  it("needs a key and a Suite or Lookups plan", async () => {
    expect((await app.request("GET", "/v1/passwords/range/5BAA6")).status).toBe(401);
    const free = await app.seedWorkspace({ plans: ["free"] });
    const r = await range(free.apiKey, "5BAA6");
    expect([r.status, r.body.error.code]).toEqual([403, "CAPABILITY_REQUIRED"]);
  });

  it("is rate limited per workspace with Retry-After, and another workspace is not", async () => {
    process.env.SERVICE_PASSWORDS_RANGE_RATE_LIMIT = "3";
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    for (let i = 0; i < 3; i++) expect((await range(ws.apiKey, "5BAA6")).status).toBe(200);
    const limited = await range(ws.apiKey, "00000");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await app.seedWorkspace({ plans: ["suite_starter"] });
    expect((await range(other.apiKey, "5BAA6")).status).toBe(200);
  });

  it("answers a bad prefix 400 before the burst limit, which it does not use up", async () => {
    process.env.SERVICE_PASSWORDS_RANGE_RATE_LIMIT = "1";
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    for (const prefix of ["5BAA", "GGGGG", "5BAA61"]) expect((await range(ws.apiKey, prefix)).status).toBe(400);
    expect((await range(ws.apiKey, "5BAA6")).status).toBe(200);
    expect((await range(ws.apiKey, "5BAA6")).status).toBe(429);
    // Past the limit a bad prefix is still told what is wrong with it.
    expect((await range(ws.apiKey, "5BAA")).status).toBe(400);
  });

  it("never writes the prefix to a log line, on a 200, a 400 or a 429", async () => {
    const lines = captureLogLines();
    try {
      process.env.SERVICE_PASSWORDS_RANGE_RATE_LIMIT = "1";
      const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
      expect((await range(ws.apiKey, "C0FFE")).status).toBe(200);
      expect((await range(ws.apiKey, "C0FFEE")).status).toBe(400);
      expect((await range(ws.apiKey, "BEEF5")).status).toBe(429);
      const requests = lines.map((l) => JSON.parse(l)).filter((r) => r.msg === "request");
      expect(requests.map((r) => [r.route, r.status])).toEqual([
        ["/passwords/range/{prefix}", 200],
        ["/passwords/range/{prefix}", 400],
        ["/passwords/range/{prefix}", 429],
      ]);
      for (const prefix of ["C0FFE", "c0ffe", "BEEF5", "beef5"]) expect(lines.join("\n")).not.toContain(prefix);
    } finally {
      silenceLogs();
    }
  });

  it("answers the same range through the dashboard's tRPC door", async () => {
    const { member } = await ownerAndMember(app.db, "pwned", ["suite_starter"]);
    const hash = sha1("qwerty");
    const r = await call(member, "passwords.passwordRange", { prefix: hash.slice(0, 5).toLowerCase() }, "query");
    expect(r.status).toBe(200);
    expect(r.data.split("\r\n")).toContain(`${hash.slice(5)}:${LIST.length - LIST.indexOf("qwerty")}`);
    const bad = await call(member, "passwords.passwordRange", { prefix: "xyz" }, "query");
    expect([bad.status, bad.code]).toEqual([400, "INVALID_REQUEST"]);
  });
});
