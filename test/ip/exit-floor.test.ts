// A listed exit (a VPN provider's published exit, a Tor exit) or a listed scanner on a hosting network never scores
// less than the same network's plain addresses. The exit lists are aged (by their kind's schedule: the Tor list of
// 2024-08-20 counts at a quarter today, the MISP scanner lists of 2026-08-20 at three quarters, the X4BNet provider
// lists of 2026-08-22 in full), and a VPN or scanner list dropped the hosting network's own match, so an aged exit
// alone fell below the hosting baseline: a PIA exit in Datacamp's AS212238 scored 16 where a plain Datacamp address
// scored 24. The list says who uses the address, not whose network it is: the network's hosting signal stays beside
// the exit's, which keeps its list's age (no second copy of the network's weight). Addresses drawn from the shipped
// lists (data/feeds); /ip and /assess both checked.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gatherIpEvidence } from "../../server/assessment/ip-evidence";
import type { AssessRequest } from "../../server/assessment/schemas";
import { getIpReputation, warmIpFeeds } from "../../server/ip/reputation";
import { signalWeight, weighSignals } from "../../server/scoring/score";
import { createTestApp, type TestApp } from "../harness";

const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
// [listed address, what lists it, a plain address of the same hosting network (on no exit or scanner list)]
const CASES = [
  {
    ip: "37.19.197.131",
    code: "vpn_exit",
    signal: "ip_vpn",
    date: "2026-08-22",
    factor: 1,
    age: /2026-08-22 list \(\d+ days old\)/,
    plain: "37.19.200.1",
    operator: "Datacamp (CDN77)",
  },
  {
    ip: "149.202.79.101",
    code: "tor_exit",
    signal: "ip_tor_exit",
    date: "2024-08-20",
    factor: 0.25,
    age: /2024-08-20 list \(\d+ days old: .*a quarter of its weight\)/,
    plain: "149.202.79.1",
    operator: "OVHcloud",
  },
  {
    ip: "89.248.167.132",
    code: "scanner",
    signal: "ip_scanner",
    date: "2026-08-20",
    factor: 0.75,
    age: /2026-08-20 list \(\d+ days old: .*three quarters of its weight\)/,
    plain: "89.248.160.1",
    operator: "IP Volume",
  },
] as const;

let app: TestApp;
beforeAll(async () => {
  // The weights depend on the shipped lists' age (AGE_SCHEDULES): pinned to 2026-11-30, 100 days after the 2026-08-22
  // snapshots (only Date is faked, and it still advances).
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: new Date("2026-11-30T06:00:00Z") });
  app = await createTestApp();
  await warmIpFeeds();
}, 180_000);
afterAll(() => {
  vi.useRealTimers();
});

const points = (reasons: { code: string; points: number }[], code: string) =>
  reasons.find((r) => r.code === code)?.points ?? 0;

describe("a listed exit or scanner on a hosting network (GET /v1/ip/{ip})", () => {
  it.each(CASES)("$ip ($code, $date list) scores at least what a plain address of its network does", async (c) => {
    const listed = await getIpReputation(c.ip);
    const plain = await getIpReputation(c.plain);
    expect(plain.privacy.classes.hosting).toMatchObject({ flag: true, provider: c.operator });
    // The exit list says who uses the address, not whose network it is: the hosting answer is the network's own.
    expect(listed.privacy.classes.hosting).toMatchObject({
      flag: true,
      provider: c.operator,
      feed: plain.privacy.classes.hosting.feed,
    });
    const hosting = points(plain.risk.reasons, "hosting");
    expect(hosting).toBeGreaterThan(0);
    expect(points(listed.risk.reasons, "hosting")).toBe(hosting);
    // The exit's own contribution is its list's, aged, on top of the network's: above the plain address.
    const own = listed.risk.reasons.find((r) => r.code === c.code)!;
    expect(own.points).toBe(signalWeight(c.signal, undefined, c.factor));
    expect(listed.risk.score).toBeGreaterThan(plain.risk.score);
    expect(own.reason).toContain(`${c.date} list`);
    expect(own.reason).toMatch(c.age);
    expect(own.reason).not.toMatch(/those of the hosting network/);
  });

  it("an exit on no known hosting network carries its list's weight alone", async () => {
    const mullvad = await getIpReputation("23.144.160.67"); // AS32727, on no hosting list
    expect(mullvad.privacy.hosting).toBe(false);
    expect(mullvad.risk.reasons.map((r) => [r.code, r.points])).toEqual([["vpn_exit", 30]]);
  });
});

describe("the same on POST /v1/assess", () => {
  it.each(CASES)("$ip: $signal weighs at least the ip_hosting of its network", async (c) => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const run = async (ip: string) => {
      const res = await app.request("POST", "/v1/assess", {
        key: ws.apiKey,
        body: { event: "login", ip, user_agent: CHROME_UA },
      });
      expect(res.status).toBe(200);
      return res.body as { score: number; signals: { code: string; weight: number; reason: string }[] };
    };
    const listed = await run(c.ip);
    const plain = await run(c.plain);
    const hosting = plain.signals.find((s) => s.code === "ip_hosting")!.weight;
    expect(listed.signals.find((s) => s.code === "ip_hosting")!.weight).toBe(hosting);
    const own = listed.signals.find((s) => s.code === c.signal)!;
    expect(own.weight).toBe(signalWeight(c.signal, "login", c.factor));
    expect(own.reason).toMatch(c.age);
    expect(listed.score).toBeGreaterThan(plain.score);
  });

  it("for an api event the exit and its network carry the api weights, the exit at its list's age", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "api", ip: "37.19.197.131", user_agent: CHROME_UA },
    });
    expect(res.status).toBe(200);
    const signals = (res.body as { signals: { code: string; weight: number }[] }).signals;
    expect(signals.find((s) => s.code === "ip_vpn")!.weight).toBe(30);
    expect(signals.find((s) => s.code === "ip_hosting")!.weight).toBe(5);
  });

  it("with learned weights too: the exit is re-weighed at its list's age, beside the learned hosting weight", async () => {
    const ev = await gatherIpEvidence({ event: "login", ip: "37.19.197.131", user_agent: CHROME_UA } as AssessRequest);
    const weighed = weighSignals(ev.signals, "login", { ip_vpn: 31, ip_hosting: 30 });
    const w = (code: string) => weighed.find((s) => s.code === code)!;
    expect(w("ip_hosting").weight).toBe(30);
    expect(w("ip_vpn").weight).toBe(31); // the list is within its 180 days: in full
    expect(w("ip_vpn").reason).toMatch(/2026-08-22 list \(\d+ days old\)/);
  });
});
