// What an aged evidence list still means, judged from outside on real public addresses of the shipped lists (VPN
// providers' own exit lists, MISP scanner lists, the Tor exit list; snapshots of 2026-08-22, 2026-08-20 and
// 2024-08-20). The age decay had one shape for every kind (full weight for the kind's window, half past it, a
// quarter past twice it), with 30-day windows for VPN exits and scanners: on a fresh clone 100 days after the
// snapshot a Mullvad exit scored 6 (allow) and a Censys scanner 10 (allow) while its reason said "Block it". A
// provider's exits and a scanner organisation's ranges change over months, Tor exits daily: the decay is graded per
// kind (server/feeds/definitions/ranges.ts), the reason says the list's age and what that means, and no reason
// advises more than its weight and the decision do.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AGE_SCHEDULES, FRESHNESS_DAYS } from "../../server/feeds/definitions/ranges";
import { ageDays, ageFactor, listAge } from "../../server/ip/privacy";
import { warmIpFeeds } from "../../server/ip/reputation";
import { signalWeight } from "../../server/scoring/score";
import { createTestApp, type TestApp } from "../harness";

const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const BINGBOT_UA = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const MULLVAD_ALONE = "23.144.160.67"; // Mullvad's own list; AS32727, on no hosting list
const MULLVAD_M247 = "146.70.117.2"; // Mullvad's own list, on M247's hosting network
const PROTON = "104.234.212.26"; // Proton VPN's own list
const CENSYS = "162.142.125.1";
const TOR = "185.220.101.73"; // Tor Project exit list of 2024-08-20
const DAY = 86_400_000;

interface Assessed {
  score: number;
  decision: string;
  signals: { code: string; weight: number; reason: string }[];
}

let app: TestApp;
let key: string;
beforeAll(async () => {
  // The answers depend on the lists' age: pinned to the day this was found, 100 days after the 2026-08-22 snapshot
  // (only Date is faked, and it still advances, so timers and the database run as usual).
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: new Date("2026-11-30T06:00:00Z") });
  app = await createTestApp();
  await warmIpFeeds();
  key = (await app.seedWorkspace({ plans: ["suite_business"] })).apiKey;
}, 180_000);
afterAll(() => {
  vi.useRealTimers();
});

async function assess(ip: string, user_agent = CHROME_UA): Promise<Assessed> {
  const res = await app.request("POST", "/v1/assess", { key, body: { event: "login", ip, user_agent } });
  expect(res.status).toBe(200);
  return res.body as Assessed;
}
const signal = (r: Assessed, code: string) => r.signals.find((s) => s.code === code)!;

describe("the age decay, per kind of list", () => {
  const at = (kind: Parameters<typeof ageFactor>[0], days: number) =>
    ageFactor(kind, new Date(Date.UTC(2026, 0, 1)), Date.UTC(2026, 0, 1) + days * DAY);

  it("Tor exits churn daily: half after a week, a quarter after two", () => {
    expect([at("tor", 6), at("tor", 8), at("tor", 15), at("tor", 800)]).toEqual([1, 0.5, 0.25, 0.25]);
  });

  it("counts the whole days its reason says: a list 7 days and some hours old is '7 days old' at full weight", () => {
    const listDay = new Date(Date.UTC(2026, 0, 1, 15));
    const seven = Date.UTC(2026, 0, 8, 12);
    expect(ageDays("2026-01-01", seven)).toBe(7);
    expect(ageFactor("tor", listDay, seven)).toBe(1);
    expect(ageFactor("tor", new Date(Date.UTC(2026, 0, 1)), seven)).toBe(1); // 7.5 days: "7 days old", full
    expect(ageFactor("tor", listDay, Date.UTC(2026, 0, 9, 1))).toBe(0.5);
    expect(ageFactor("vpn", listDay, Date.UTC(2026, 5, 30, 23))).toBe(1); // 180 days
    expect(ageFactor("vpn", listDay, Date.UTC(2026, 6, 1))).toBe(0.75); // 181
    expect(ageFactor("tor", new Date(0), seven)).toBe(0.25);
  });

  it("a list never fetched says so, without a date or an age", () => {
    const m = { kind: "tor", snapshotDate: "never", weightFactor: 0.25 } as Parameters<typeof listAge>[0];
    expect(listAge(m)).toBe("in a list never fetched (it counts at a quarter of its weight)");
  });

  it("a VPN provider's exits and a scanner organisation's ranges change over months, not days", () => {
    expect(at("vpn", 100)).toBe(1);
    expect(at("vpn", 200)).toBe(0.75);
    expect(at("scanner", 60)).toBe(1);
    expect(at("scanner", 100)).toBe(0.75);
    expect(at("scanner", 800)).toBe(0.25);
    expect(at("cloud", 300)).toBe(1);
  });

  it("every kind's schedule only ever lowers the weight, and says why", () => {
    for (const [kind, s] of Object.entries(AGE_SCHEDULES)) {
      expect(s.why.length, kind).toBeGreaterThan(20);
      expect(FRESHNESS_DAYS[kind as keyof typeof FRESHNESS_DAYS]).toBe(s.steps[0]![0]);
      let last = Infinity;
      let lastDays = 0;
      for (const [days, factor] of s.steps) {
        expect(factor).toBeLessThan(last);
        expect(days).toBeGreaterThan(lastDays);
        [last, lastDays] = [factor, days];
      }
    }
  });
});

describe("POST /v1/assess on a fresh clone (lists of 2026-08-22, 2026-08-20 and 2024-08-20)", () => {
  it("a VPN provider's own published exit is reviewed, not allowed, on a hosting network or not", async () => {
    for (const ip of [MULLVAD_ALONE, MULLVAD_M247, PROTON]) {
      const r = await assess(ip);
      expect(r.decision, ip).toBe("review");
      const vpn = signal(r, "ip_vpn");
      expect(vpn.weight, ip).toBe(signalWeight("ip_vpn", "login"));
      expect(vpn.reason).toMatch(/in the 2026-08-22 list \(\d+ days old/);
      expect(vpn.reason).not.toMatch(/quarter|half/);
    }
  });

  it("a scanner counts at three quarters at 100 days, says so, and does not advise blocking", async () => {
    const r = await assess(CENSYS);
    const s = signal(r, "ip_scanner");
    expect(s.weight).toBe(signalWeight("ip_scanner", "login", 0.75));
    expect(s.reason).toMatch(/2026-08-20 list \(\d+ days old.*three quarters/);
    expect(r.decision).toBe("review");
    expect(s.reason).not.toMatch(/\bblock it\b/i);
  });

  it("a Tor exit from a two-year-old list says it may no longer be one and advises nothing its weight does not", async () => {
    const r = await assess(TOR);
    const s = signal(r, "ip_tor_exit");
    expect(s.weight).toBe(signalWeight("ip_tor_exit", "login", 0.25));
    expect(s.reason).toMatch(/2024-08-20 list \(\d+ days old/);
    expect(s.reason).toMatch(/Tor exits change daily/);
    expect(s.reason).toMatch(/a quarter/);
    expect(s.reason).not.toMatch(/Ask for stronger verification/);
    // What being an exit would mean is said as a condition, not as a fact the list's age leaves in doubt.
    expect(s.reason).toMatch(/\. If it still is one, the user's real network and location are hidden\.$/);
  });

  it("no reason advises blocking unless the decision is block", async () => {
    for (const [ip, ua] of [
      [CENSYS, CHROME_UA],
      [TOR, CHROME_UA],
      [MULLVAD_M247, CHROME_UA],
      ["73.162.1.1", BINGBOT_UA], // a Comcast address claiming Bingbot: spoofed
      ["89.248.167.132", CHROME_UA], // a scanner on a hosting network
      ["73.162.1.1", "curl/8.5.0"], // an automation tool's user agent from a home address
    ]) {
      const r = await assess(ip!, ua);
      if (r.decision === "block") continue;
      for (const s of r.signals) expect(s.reason, `${ip} ${s.code} (${r.decision})`).not.toMatch(/\bblock\b/i);
    }
  });
});
