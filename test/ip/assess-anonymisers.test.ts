// VPN exits, VPN networks, hosting operators and internet scanners in POST /v1/assess (issue 43): the signals and
// their reasons, the `ip.privacy` classes, and rules on the new facts (`ip.scanner`, `ip.scanner_org`,
// `ip.vpn_provider`, `ip.hosting_provider`, `ip.privacy_confidence`), through both ways into /assess: node:http's values
// as the production server hands them (server/api/rest/plain-door.ts, which the harness's requests use) and a web
// Request through the route's handler (server/api/rest/handler.ts). Addresses are drawn from the shipped X4BNet and MISP lists.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { handleRestRequest } from "../../server/api/rest/handler";
import { warmIpFeeds } from "../../server/ip/reputation";
import { evaluateRules } from "../../server/rules/evaluate";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";
import { humanChrome, IP as MOUNTAIN_VIEW } from "../device/signals";

const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const MULLVAD_EXIT = "23.144.160.67";
const M247 = "2.56.16.5"; // AS9009, on X4BNet's VPN ASN list (NordVPN) and its VPN ranges
const CENSYS = "162.142.125.1";
const SHODAN_V6 = "2a00:5980:93::130"; // CIRCL's SSH scanner, IPv6
const QUADRANET_V6 = "2602:fed2:708d::5"; // AS8100 on X4BNet's hosting ASN list
const COMCAST = "73.162.1.1";

type Door = "plain" | "route";
interface Assessed {
  score: number;
  decision: string;
  decided_by: string;
  signals: { code: string; weight: number; reason: string; evidence: string[] }[];
  rules: { id: string; name: string; action: string }[];
  ip: { network_type: string; hosting: boolean; privacy: Record<string, unknown> & { classes: Record<string, any> } };
}

let app: TestApp;
beforeAll(async () => {
  // The weights depend on the shipped lists' age (AGE_SCHEDULES): pinned to 2026-11-30, 100 days after the 2026-08-22
  // snapshots (only Date is faked, and it still advances).
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: new Date("2026-11-30T06:00:00Z") });
  app = await createTestApp();
  await warmIpFeeds();
  // The expression evaluator's first run in a process is slow; past the rules' time budget a rule is skipped (and
  // said so), which is not what these tests are about: warm it outside them.
  const warm = {
    id: "warm",
    name: "warm",
    action: "block",
    conditions: null,
    expression: 'ip.scanner && ip.scanner_org == "x"',
  };
  evaluateRules([warm], { "ip.scanner": true, "ip.scanner_org": "x" }, { budgetMs: 60_000 });
}, 180_000);
afterAll(() => {
  vi.useRealTimers();
});

async function assess(door: Door, key: string, body: Record<string, unknown>): Promise<Assessed> {
  if (door === "plain") {
    const res = await app.request("POST", "/v1/assess", { key, body });
    expect(res.status).toBe(200);
    return res.body as Assessed;
  }
  const res = await handleRestRequest(
    new Request("http://127.0.0.1:3000/v1/assess", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    }),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as Assessed;
}

async function rule(key: string, name: string, expression: string, action = "block") {
  const res = await app.request("POST", "/v1/rules", { key, body: { name, action, priority: 0, expression } });
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

const signal = (r: Assessed, code: string) => r.signals.find((s) => s.code === code);

describe.each(["plain", "route"] as Door[])("POST /v1/assess (%s door)", (door) => {
  it("a provider's exit is ip_vpn with the provider, high confidence, the list and its date", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const r = await assess(door, ws.apiKey, { event: "login", ip: MULLVAD_EXIT, user_agent: CHROME_UA });
    const vpn = signal(r, "ip_vpn")!;
    expect(vpn.reason).toMatch(
      /is a Mullvad VPN exit \(23\.144\.160\.67\/32; Mullvad server list \(X4BNet lists_vpn\), the provider's own list: high confidence\) in the 2026-08-22 list \(\d+ days old\): /,
    );
    expect(vpn.evidence).toEqual(["vpn-mullvad"]);
    expect(signal(r, "ip_vpn_network")).toBeUndefined();
    expect(r.ip.privacy).toMatchObject({ vpn: true, confidence: "high" });
    expect(r.ip.privacy.classes.vpn).toMatchObject({
      flag: true,
      provider: "Mullvad VPN",
      confidence: "high",
      basis: "provider_exit_list",
      list: "Mullvad server list (X4BNet lists_vpn)",
      feed: "vpn-mullvad",
      snapshot_date: "2026-08-22",
    });
  });

  it("a VPN operator's network is ip_vpn_network at medium confidence; its hosting says VPN-capable", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const r = await assess(door, ws.apiKey, { event: "login", ip: M247, user_agent: CHROME_UA });
    expect(signal(r, "ip_vpn")).toBeUndefined();
    expect(signal(r, "ip_vpn_network")!.reason).toMatch(
      /VPN operator's network \(M247 \(NordVPN\);.*medium confidence/,
    );
    expect(signal(r, "ip_hosting")!.reason).toMatch(/VPN-capable hosting/);
    expect(r.ip).toMatchObject({ network_type: "anonymizer", hosting: true });
    expect(r.ip.privacy.classes.vpn).toMatchObject({
      provider: "M247 (NordVPN)",
      confidence: "medium",
      basis: "vpn_network",
    });
  });

  it("a scanner is ip_scanner with its organisation, and a rule on ip.scanner blocks it", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const blocked = await rule(ws.apiKey, "No scanners", "ip.scanner");
    const named = await rule(ws.apiKey, "Censys by name", 'ip.scanner_org == "Censys"', "review");
    const r = await assess(door, ws.apiKey, { event: "signup", ip: CENSYS, user_agent: CHROME_UA });
    expect(signal(r, "ip_scanner")).toMatchObject({
      weight: 30, // 40 at three quarters: the MISP lists of 2026-08-20 are past a scanner list's 90 days
      evidence: ["scanners-misp"],
      reason: expect.stringMatching(
        /internet-wide scanner run by Censys \(162\.142\.125\.0\/24, MISP warninglist censys-scanning\)/,
      ),
    });
    expect(r.ip.privacy.classes.scanner).toMatchObject({ flag: true, provider: "Censys", confidence: "high" });
    expect(r.ip.network_type).toBe("service");
    expect(r).toMatchObject({ decision: "block", decided_by: "rule" });
    expect(r.rules.map((x) => x.id).sort()).toEqual([blocked.id, named.id].sort());

    // IPv6 scanner: the same rule; a home connection: no scanner, no rule, no IP signal.
    const v6 = await assess(door, ws.apiKey, { event: "signup", ip: SHODAN_V6, user_agent: CHROME_UA });
    expect(v6).toMatchObject({ decision: "block", rules: [{ id: blocked.id }] });
    expect(v6.ip.privacy.classes.scanner.provider).toBe("CIRCL");
    const home = await assess(door, ws.apiKey, { event: "signup", ip: COMCAST, user_agent: CHROME_UA });
    expect(home).toMatchObject({ decision: "allow", decided_by: "score", rules: [], signals: [] });
    expect(home.ip.privacy).toMatchObject({ scanner: false, vpn: false, hosting: false, confidence: null });
  });

  it("rules read the VPN provider, the hosting operator and the confidence", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const nord = await rule(ws.apiKey, "NordVPN networks", 'ip.vpn_provider.contains("NordVPN")', "review");
    const medium = await rule(ws.apiKey, "Unsure anonymiser", 'ip.privacy_confidence == "medium"', "challenge");
    const quadra = await rule(ws.apiKey, "QuadraNet", 'ip.hosting_provider.startsWith("QuadraNet")', "challenge");
    const m247 = await assess(door, ws.apiKey, { event: "login", ip: M247, user_agent: CHROME_UA });
    expect(m247.rules.map((x) => x.id).sort()).toEqual([nord.id, medium.id].sort());
    const host = await assess(door, ws.apiKey, { event: "login", ip: QUADRANET_V6, user_agent: CHROME_UA });
    expect(host.rules.map((x) => x.id).sort()).toEqual([medium.id, quadra.id].sort());
    expect(signal(host, "ip_hosting")!.reason).toMatch(
      /belongs to QuadraNet Enterprises LLC \(hosting network, medium confidence\)/,
    );
    const exit = await assess(door, ws.apiKey, { event: "login", ip: MULLVAD_EXIT, user_agent: CHROME_UA });
    expect(exit.rules).toEqual([]);
  });
});

describe("both doors", () => {
  it("answer the same signals, privacy classes and rules for a scanner and a VPN exit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    await rule(ws.apiKey, "No scanners", "ip.scanner");
    for (const ip of [CENSYS, MULLVAD_EXIT, M247]) {
      const body = { event: "signup", ip, user_agent: CHROME_UA };
      const [a, b] = [await assess("plain", ws.apiKey, body), await assess("route", ws.apiKey, body)];
      expect(b.signals).toEqual(a.signals);
      expect(b.ip).toEqual(a.ip);
      expect(b.rules).toEqual(a.rules);
      expect([b.score, b.decision]).toEqual([a.score, a.decision]);
    }
  });
});

describe("device.timezone_mismatch (issue 43, item 4)", () => {
  it.each(["plain", "route"] as Door[])(
    "a rule reads the device's time zone against the address's location (%s door); unknown without a device",
    async (door) => {
      const ws = await app.seedWorkspace({ plans: ["suite_business"] });
      const r = await rule(ws.apiKey, "Zone does not fit", "device.timezone_mismatch", "review");
      const tokyo = { ...humanChrome("zonevisitor001"), timezone: "Asia/Tokyo" };
      const far = await assess(door, ws.apiKey, {
        event: "login",
        ip: MOUNTAIN_VIEW,
        user_agent: CHROME_UA,
        device: tokyo,
      });
      expect(far.rules.map((x) => x.id)).toEqual([r.id]);
      const near = { ...humanChrome("zonevisitor002"), timezone: "America/Los_Angeles" };
      const fits = await assess(door, ws.apiKey, {
        event: "login",
        ip: MOUNTAIN_VIEW,
        user_agent: CHROME_UA,
        device: near,
      });
      expect(fits.rules).toEqual([]);
      const none = await assess(door, ws.apiKey, { event: "login", ip: MOUNTAIN_VIEW, user_agent: CHROME_UA });
      expect(none.rules).toEqual([]);
    },
  );
});

describe("shared egress from the workspace's own assessments (issue 43, item 4)", () => {
  it('says one device, not "1 devices", when ten accounts share a device and an address', async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    let last: Awaited<ReturnType<typeof assess>> | undefined;
    for (let i = 0; i < 10; i++) {
      const body = { event: "login", ip: COMCAST, user_agent: CHROME_UA, user_id: `shop-${i}`, device_id: "till-1" };
      last = await assess("plain", ws.apiKey, body);
    }
    expect(signal(last!, "ip_shared_egress")?.reason).toMatch(
      /^73\.162\.1\.1 was used by 10 accounts and 1 device in the last 24 hours: /,
    );
  });

  it.each(["plain", "route"] as Door[])(
    "an address that carried 40 accounts in a day is shared egress; one that carried 2 is not (%s door)",
    async (door) => {
      const busy = await app.seedWorkspace({ plans: ["suite_business"] });
      const shared = await rule(
        busy.apiKey,
        "Shared",
        "ip.shared_egress && ip.users_24h == 41 && ip.devices_24h == 41 && ip.failed_users_24h == 20 && ip.failed_share_24h > 0.48 && ip.failed_share_24h < 0.49",
      );
      for (let i = 0; i < 40; i++) {
        const res = await app.request("POST", "/v1/assess", {
          key: busy.apiKey,
          body: {
            event: "login",
            ip: COMCAST,
            user_agent: CHROME_UA,
            user_id: `office-${i}`,
            device_id: `pc-${i}`,
            // Half of them failed to log in: the share is evidence too.
            ...(i % 2 === 0 ? { status: "failed" } : {}),
          },
        });
        expect(res.status).toBe(200);
      }
      const last = { event: "login", ip: COMCAST, user_agent: CHROME_UA, user_id: "office-40", device_id: "pc-40" };
      expect((await assess(door, busy.apiKey, last)).rules.map((r) => r.id)).toEqual([shared.id]);

      const quiet = await app.seedWorkspace({ plans: ["suite_business"] });
      const two = await rule(quiet.apiKey, "Two", "!ip.shared_egress && ip.users_24h == 2 && ip.users_7d == 2");
      await assess("plain", quiet.apiKey, { event: "login", ip: COMCAST, user_agent: CHROME_UA, user_id: "home-a" });
      const second = { event: "login", ip: COMCAST, user_agent: CHROME_UA, user_id: "home-b" };
      expect((await assess(door, quiet.apiKey, second)).rules.map((r) => r.id)).toEqual([two.id]);
      // The same account again is no new account.
      const again = await assess(door, quiet.apiKey, { ...second, event: "checkout" });
      expect(again.rules.map((r) => r.id)).toEqual([two.id]);
    },
    60_000,
  );
});

// The rest of item 4: the share of an address's accounts of the day that were labelled fraud (outcome labels and
// resolved review cases), the device's languages against the address's country, and shared egress as a score signal
// in words; through the two /v1 doors and the dashboard's tRPC endpoint, labels given through each of them.
describe("labelled fraud, languages and the shared egress signal (issue 43, item 4)", () => {
  type Door3 = Door | "dashboard";
  let user: { id: string; email: string };
  beforeAll(async () => {
    user = await ensureUser(app.db, { email: "egress-owner@example.test" });
  });
  const owned = () =>
    createWorkspace(app.db, {
      name: "egress",
      plans: ["suite_business"],
      ownerEmail: user.email,
      ownerUserId: user.id,
    });
  /** A dashboard tRPC mutation as the workspace's owner. */
  async function trpc(workspaceId: string, procedure: string, input: unknown): Promise<any> {
    const res = await handleDashboardRequest(
      new Request(`http://127.0.0.1:3000/api/trpc/${procedure}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "http://127.0.0.1:3000",
          "x-service-workspace": workspaceId,
        },
        body: JSON.stringify(input),
      }),
      async () => ({ userId: user.id, email: user.email, name: null }),
    );
    expect(res.status).toBe(200);
    return ((await res.json()) as any).result.data;
  }
  const assess3 = (door: Door3, ws: { workspaceId: string; apiKey: string }, body: Record<string, unknown>) =>
    door === "dashboard"
      ? (trpc(ws.workspaceId, "assessment.assess", body) as Promise<Assessed>)
      : assess(door, ws.apiKey, body);
  const label = async (key: string, requestId: string, outcome: string) => {
    const res = await app.request("POST", `/v1/assess/${requestId}/outcome`, { key, body: { outcome } });
    expect(res.status).toBe(200);
  };

  it.each(["plain", "route", "dashboard"] as Door3[])(
    "ip.fraud_users_24h and ip.fraud_share_24h count the day's accounts labelled fraud there, by label or case; a relabel takes one back (%s door)",
    async (door) => {
      const ws = await owned();
      const reviewTwo = await rule(ws.apiKey, "Look at acct-2", 'user_id == "acct-2"', "review");
      const exact = await rule(
        ws.apiKey,
        "Three of thirteen",
        "ip.users_24h == 13 && ip.fraud_users_24h == 3 && ip.fraud_share_24h > 0.23 && ip.fraud_share_24h < 0.24",
      );
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await assess3(door, ws, { event: "login", ip: COMCAST, user_agent: CHROME_UA, user_id: `acct-${i}` });
        ids.push((r as unknown as { request_id: string }).request_id);
      }
      // Another workspace's fraud from the same address counts for nothing here.
      const other = await app.seedWorkspace({ plans: ["suite_business"] });
      const theirs = await assess("plain", other.apiKey, {
        event: "login",
        ip: COMCAST,
        user_agent: CHROME_UA,
        user_id: "x",
      });
      await label(other.apiKey, (theirs as unknown as { request_id: string }).request_id, "fraud");

      await label(ws.apiKey, ids[0]!, "fraud"); // a label through /v1
      await trpc(ws.workspaceId, "assessment.outcome", { request_id: ids[1], outcome: "chargeback" }); // the dashboard
      const kase = await app.db.reviewCase.findFirstOrThrow({
        where: { workspaceId: ws.workspaceId, subject: "user:acct-2" },
      });
      expect(kase.rule).toBe(reviewTwo.id);
      const resolved = await app.request("POST", `/v1/cases/${kase.id}/resolve`, {
        key: ws.apiKey,
        body: { resolution: "fraud" },
      });
      expect(resolved.status).toBe(200);
      await label(ws.apiKey, ids[3]!, "legitimate"); // not fraud
      await label(ws.apiKey, ids[4]!, "account_takeover");
      await label(ws.apiKey, ids[4]!, "legitimate"); // relabelled: its pair goes

      const last = await assess3(door, ws, { event: "login", ip: COMCAST, user_agent: CHROME_UA, user_id: "acct-12" });
      expect(last.rules.map((r) => r.id)).toEqual([exact.id]);
      // The shared egress signal says how many accounts, and how many of them were labelled fraud, in words.
      expect(signal(last, "ip_shared_egress")).toMatchObject({
        weight: expect.any(Number),
        evidence: ["workspace-events"],
        reason: expect.stringMatching(
          /^73\.162\.1\.1 was used by 13 accounts in the last 24 hours.*3 of them were labelled fraud there.*Evidence, not a verdict/,
        ),
      });
      expect(signal(last, "ip_shared_egress")!.weight).toBeGreaterThan(0);
    },
    120_000,
  );

  it.each(["plain", "route", "dashboard"] as Door3[])(
    "no shared egress signal for an address of 2 accounts; device.language_mismatch reads the device's languages (%s door)",
    async (door) => {
      const ws = await owned();
      const lang = await rule(ws.apiKey, "Language does not fit", "device.language_mismatch", "review");
      await assess3(door, ws, { event: "login", ip: MOUNTAIN_VIEW, user_agent: CHROME_UA, user_id: "home-a" });
      const ru = { ...humanChrome("russianvisitor1"), languages: ["ru-RU", "ru"] };
      const far = await assess3(door, ws, {
        event: "login",
        ip: MOUNTAIN_VIEW,
        user_agent: CHROME_UA,
        user_id: "home-b",
        device: ru,
      });
      expect(far.rules.map((r) => r.id)).toEqual([lang.id]);
      expect(signal(far, "ip_shared_egress")).toBeUndefined();
      const en = { ...humanChrome("englishvisitor1"), languages: ["en-US", "en"] };
      const near = await assess3(door, ws, { event: "login", ip: MOUNTAIN_VIEW, user_agent: CHROME_UA, device: en });
      expect(near.rules).toEqual([]);
      // No languages sent: unknown, not a mismatch.
      const none = { ...humanChrome("quietvisitor01"), languages: undefined };
      const unknown = await assess3(door, ws, {
        event: "login",
        ip: MOUNTAIN_VIEW,
        user_agent: CHROME_UA,
        device: none,
      });
      expect(unknown.rules).toEqual([]);
    },
    60_000,
  );
});
