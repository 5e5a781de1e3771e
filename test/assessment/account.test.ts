// The account's own history in /assess (issue 24, items 1 and 2): the per-user baseline (new country, network,
// device, impossible travel) and the failed-login counters (an account guessed, credential stuffing from one address).
import { describe, expect, it } from "vitest";
import { migrationSql } from "./seeded-events";
import { CHROME_UA, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

/** Deutsche Telekom addresses in Düsseldorf and Erkrath (9 km apart, AS3320). */
const DE_HOME = "91.0.0.1";
const DE_NEARBY = "79.192.0.1";
/** A Telstra address in Sydney. */
const AU_SYDNEY = "120.144.0.1";
/** A Proton VPN exit (shipped VPN list), geolocated in Taiwan. */
const PROTON_VPN = "2.58.241.66";
/** An Optus address in New South Wales, used as the stuffing source. */
const STUFFER = "49.176.0.1";

interface Result {
  score: number;
  decision: string;
  signals: { code: string; weight: number; reason: string }[];
  rules: { name: string }[];
  account: null | {
    key: string;
    seen_before: boolean;
    new_country: boolean | null;
    new_asn: boolean | null;
    new_device: boolean | null;
    countries_30d: number;
    failed_logins_1h: number;
    success_after_failures: boolean;
    travel: null | {
      from_country: string | null;
      km: number;
      minutes: number;
      kmh: number;
      impossible: boolean;
      note: string | null;
    };
  };
}

async function assess(key: string, body: Record<string, unknown>): Promise<Result> {
  const res = await app().request("POST", "/v1/assess", { key, body: { user_agent: CHROME_UA, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Result;
}

const codes = (r: Result) => r.signals.map((s) => s.code);
const accountCodes = (r: Result) => codes(r).filter((c) => c.startsWith("user_") || c.endsWith("_stuffing"));

/** Moves the account's stored assessments `minutes` into the past: the time between the logins of a scenario. */
async function backdate(workspaceId: string, subject: string, minutes: number) {
  await app().db.$executeRawUnsafe(
    `UPDATE "Event" SET "createdAt" = "createdAt" - make_interval(mins => $3) WHERE "workspaceId" = $1 AND "subject" = $2`,
    workspaceId,
    subject,
    minutes,
  );
}

describe("the account's baseline", () => {
  it("a user who always logs in from Germany on one device gets no baseline signal, and a first signup is new nothing", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    const signup = await assess(ws.apiKey, { event: "signup", ip: DE_HOME, user_id: "anna", device_id: "laptop" });
    expect(signup.account).toMatchObject({
      key: "user_id",
      seen_before: false,
      new_country: false,
      new_asn: false,
      new_device: false,
      countries_30d: 1,
      travel: null,
    });
    expect(accountCodes(signup)).toEqual([]);
    await backdate(ws.workspaceId, "user:anna", 60 * 24);

    for (const ip of [DE_HOME, DE_NEARBY, DE_HOME]) {
      const login = await assess(ws.apiKey, { event: "login", ip, user_id: "anna", device_id: "laptop" });
      expect(login.account).toMatchObject({ seen_before: true, new_country: false, new_asn: false, new_device: false });
      expect(login.account!.travel?.impossible ?? false).toBe(false);
      expect(accountCodes(login)).toEqual([]);
    }
  });

  it("the same user from Australia twelve minutes later is impossible travel, with the distance and the speed", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    await assess(ws.apiKey, { event: "login", ip: DE_HOME, user_id: "ben", device_id: "phone" });
    await backdate(ws.workspaceId, "user:ben", 12);

    // A rule can read the new facts.
    const rule = await app().request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: {
        priority: 0,
        name: "Impossible travel",
        action: "block",
        expression: "user.impossible_travel && user.travel_kmh > 1000.0",
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);

    const far = await assess(ws.apiKey, { event: "login", ip: AU_SYDNEY, user_id: "ben", device_id: "phone" });
    expect(far.account!.travel).toMatchObject({ from_country: "DE", minutes: 12, impossible: true, note: null });
    expect(far.account!.travel!.km).toBeGreaterThan(15_000);
    expect(far.account!.travel!.kmh).toBeGreaterThan(75_000);
    expect(far.account).toMatchObject({ new_country: true, new_asn: true, new_device: false, countries_30d: 2 });
    const travel = far.signals.find((s) => s.code === "user_impossible_travel");
    expect(travel?.weight).toBe(50);
    expect(travel?.reason).toMatch(/^16,\d{3} km from its login 12 minutes earlier in Germany: \d{2},\d{3} km\/h/);
    expect(far.signals.find((s) => s.code === "user_new_country")?.reason).toContain(
      "First login from Australia for this account in 90 days; its earlier ones came from Germany",
    );
    expect(far.rules.map((r) => r.name)).toEqual(["Impossible travel"]);
    expect(far.decision).toBe("block");
  });

  it("says how long ago the last login was in words: a minute, less than a minute", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    await assess(ws.apiKey, { event: "login", ip: DE_HOME, user_id: "dora" });
    await backdate(ws.workspaceId, "user:dora", 1);
    await assess(ws.apiKey, { event: "login", ip: DE_HOME, user_id: "emil" });
    const reason = async (user: string) =>
      (await assess(ws.apiKey, { event: "login", ip: AU_SYDNEY, user_id: user })).signals.find(
        (s) => s.code === "user_impossible_travel",
      )?.reason;
    expect(await reason("dora")).toMatch(/ km from its login 1 minute earlier in Germany: /);
    expect(await reason("emil")).toMatch(/ km from its login less than a minute earlier in Germany: /);
  });

  it("the same from a Proton VPN exit is not impossible travel, and says why", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    await assess(ws.apiKey, { event: "login", ip: DE_HOME, user_id: "cleo" });
    await backdate(ws.workspaceId, "user:cleo", 12);
    const vpn = await assess(ws.apiKey, { event: "login", ip: PROTON_VPN, user_id: "cleo" });
    expect(vpn.account!.travel).toMatchObject({ impossible: false, from_country: "DE" });
    expect(vpn.account!.travel!.kmh).toBeGreaterThan(1000);
    expect(vpn.account!.travel!.note).toContain("VPN, Tor, relay or hosting address");
    expect(codes(vpn)).not.toContain("user_impossible_travel");
    expect(codes(vpn)).toContain("ip_vpn");
  });

  it("falls back to the email without a user_id, and another workspace's history never counts", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    const other = await app().seedWorkspace({ plans: ["suite_business"] });
    await assess(ws.apiKey, { event: "login", ip: DE_HOME, email: "dora@example.com" });
    await backdate(ws.workspaceId, "email:dora@example.com", 60);
    const again = await assess(ws.apiKey, { event: "login", ip: AU_SYDNEY, email: "Dora@Example.com" });
    expect(again.account).toMatchObject({ key: "email", seen_before: true, new_country: true });

    const elsewhere = await assess(other.apiKey, { event: "login", ip: AU_SYDNEY, email: "dora@example.com" });
    expect(elsewhere.account).toMatchObject({ seen_before: false, new_country: false, travel: null });
    const anonymous = await assess(ws.apiKey, { event: "login", ip: DE_HOME });
    expect(anonymous.account).toBeNull();
  });
});

describe("failed logins and credential stuffing", () => {
  it("5 failures then a success: the failures count, the success after them is a signal, and failures teach no baseline", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    await assess(ws.apiKey, { event: "login", ip: DE_HOME, user_id: "eve" });
    await backdate(ws.workspaceId, "user:eve", 60 * 24 * 3);
    let last: Result | null = null;
    for (let i = 1; i <= 5; i++) {
      last = await assess(ws.apiKey, { event: "login", status: "failed", ip: AU_SYDNEY, user_id: "eve" });
      expect(last.account!.failed_logins_1h).toBe(i);
    }
    expect(last!.signals.find((s) => s.code === "user_failed_logins")?.reason).toContain(
      "5 failed attempts for this account in the last hour",
    );
    const success = await assess(ws.apiKey, { event: "login", ip: AU_SYDNEY, user_id: "eve" });
    expect(success.account).toMatchObject({ success_after_failures: true, failed_logins_1h: 5, new_country: true });
    expect(success.signals.find((s) => s.code === "user_success_after_failures")?.reason).toContain(
      "succeeded after 5 failed ones",
    );
    // The success reset the run: the next success is ordinary.
    const next = await assess(ws.apiKey, { event: "login", ip: AU_SYDNEY, user_id: "eve" });
    expect(next.account).toMatchObject({ success_after_failures: false, new_country: false });
  });

  it("30 accounts failing from one address is credential stuffing", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    let last: Result | null = null;
    for (let i = 1; i <= 30; i++)
      last = await assess(ws.apiKey, { event: "login", status: "failed", ip: STUFFER, user_id: `victim-${i}` });
    const stuffing = last!.signals.find((s) => s.code === "ip_credential_stuffing");
    expect(stuffing?.reason).toContain(`30 different accounts failed to log in from ${STUFFER} in the last hour`);
    expect(stuffing?.weight).toBe(40);
    expect(last!.score).toBeGreaterThanOrEqual(60);
    // The signal alone (40) reviews: its reason advises no more (no block, no challenge), and names the fact a rule
    // reads to act on such logins outright.
    expect(stuffing?.reason).not.toMatch(/\bblock\b/i);
    expect(stuffing?.reason).toContain("Review the logins from it; a rule on ip.failed_users_1h");
    // Facts for rules: read back through a rule that needs them.
    const rule = await app().request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: {
        priority: 0,
        name: "Stuffing",
        action: "block",
        expression: "ip.failed_users_1h >= 30 && ip.failed_logins_1h >= 30",
      },
    });
    expect(rule.status).toBe(200);
    const more = await assess(ws.apiKey, { event: "login", status: "failed", ip: STUFFER, user_id: "victim-31" });
    expect(more.rules.map((r) => r.name)).toEqual(["Stuffing"]);
  });

  it("refuses status failed on other events, before any unit is used", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    const res = await app().request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "checkout", status: "failed", ip: DE_HOME },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toContain("status failed applies to login and signup events only");
    const ok = await app().request("POST", "/v1/assess", { key: ws.apiKey, body: { event: "login", ip: DE_HOME } });
    expect(ok.headers.get("x-service-quota-used")).toBe("1");
  });
});

describe("assessments stored before the account's columns", () => {
  /** The backfill of the migration that made them columns, as `prisma migrate deploy` runs it. */
  function backfillStatement(): string {
    const sql = migrationSql("_event_account_columns");
    const update = sql.slice(sql.indexOf('UPDATE "Event"'));
    return update.slice(0, update.indexOf(";") + 1);
  }

  it("keep their baseline, travel and failure counts once the migration filled the columns in from their data", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    await assess(ws.apiKey, { event: "login", ip: DE_HOME, user_id: "eva", device_id: "tablet" });
    await assess(ws.apiKey, { event: "login", status: "failed", ip: DE_HOME, user_id: "eva", device_id: "tablet" });
    // As an event stored before the columns existed: its values only in its data.
    await app().db.$executeRawUnsafe(
      `UPDATE "Event" SET "kind" = NULL, "failed" = false, "country" = NULL, "asn" = NULL, "latitude" = NULL,
         "longitude" = NULL, "hidesLocation" = false WHERE "workspaceId" = $1`,
      ws.workspaceId,
    );
    await app().db.$executeRawUnsafe(backfillStatement());
    await backdate(ws.workspaceId, "user:eva", 12);

    const far = await assess(ws.apiKey, { event: "login", ip: AU_SYDNEY, user_id: "eva", device_id: "tablet" });
    expect(far.account!.travel).toMatchObject({ from_country: "DE", minutes: 12, impossible: true, note: null });
    expect(far.account).toMatchObject({ seen_before: true, new_country: true, new_asn: true, new_device: false });
    expect(far.account!.failed_logins_1h).toBe(1);
  });
});
