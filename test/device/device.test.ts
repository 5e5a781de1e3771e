// POST /v1/device/check: automation verdicts, consistency checks, per-device velocity and the risk contribution;
// capability and cost.
import { beforeAll, describe, expect, it } from "vitest";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";
import { IP, humanChrome } from "./signals";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const check = (key: string, body: unknown) => app.request("POST", "/v1/device/check", { key, body });

describe("device diagnosis", () => {
  it("an ordinary browser is human, consistent and adds nothing", async () => {
    const ws = await app.seedWorkspace();
    const res = await check(ws.apiKey, { device: humanChrome(), ip: IP });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      device_id: expect.stringMatching(/^dev_[\w-]{22}$/),
      automation: { verdict: "human", reasons: ["No automation or headless markers."] },
      velocity: { accounts: 0, emails: 0, ips: 1 },
      risk: { score: 0, signals: [] },
    });
    expect(res.body.consistency.map((c: any) => [c.check, c.result])).toEqual([
      ["timezone_vs_ip", "consistent"],
      ["user_agent_vs_client_hints", "consistent"],
      ["user_agent_vs_platform", "consistent"],
      ["languages", "consistent"],
      ["language_vs_ip", "consistent"],
    ]);
    expect(res.headers.get("x-service-quota-used")).toBe("1");
  });

  it("checks the browser's languages against the IP's country, without a signal of its own (issue 43)", async () => {
    const ws = await app.seedWorkspace();
    const lang = async (languages: string[] | undefined, ip?: string) => {
      const device = { ...humanChrome("linguist0001"), languages };
      const res = await check(ws.apiKey, { device, ...(ip ? { ip } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.risk.signals.map((s: any) => s.code)).not.toContain("device_language_mismatch");
      return res.body.consistency.find((c: any) => c.check === "language_vs_ip");
    };
    expect(await lang(["ru-RU", "ru"], IP)).toEqual({
      check: "language_vs_ip",
      result: "inconsistent",
      reason:
        "The browser's languages (ru-RU, ru) include none spoken in the United States (English or Spanish): a proxy or VPN in another country, or a traveller or expatriate.",
    });
    expect(await lang(["es-MX", "en"], IP)).toMatchObject({
      result: "consistent",
      reason: "The browser's languages (es-MX, en) include Spanish, spoken in the United States.",
    });
    // Deutsche Telekom (Germany): German fits, French does not.
    expect((await lang(["de-DE"], "2.58.100.5")).result).toBe("consistent");
    expect((await lang(["fr-CH"], "2.58.100.5")).result).toBe("inconsistent");
    expect((await lang(undefined, IP)).result).toBe("not_checked");
    expect((await lang(["en-US"])).result).toBe("not_checked");
    expect((await lang(["en-US"], "10.0.0.1")).result).toBe("not_checked");
  });

  it("the same visitor id gives the same device id", async () => {
    const ws = await app.seedWorkspace();
    const a = await check(ws.apiKey, { device: humanChrome("samevisitor1") });
    const b = await check(ws.apiKey, { device: { ...humanChrome("samevisitor1"), languages: ["de"] } });
    expect(a.body.device_id).toBe(b.body.device_id);
    expect((await check(ws.apiKey, { device: humanChrome("othervisitor") })).body.device_id).not.toBe(a.body.device_id);
  });

  it("headless Chrome under automation is automated, with every reason and its weight", async () => {
    const ws = await app.seedWorkspace();
    const device = {
      ...humanChrome("headless0001"),
      webdriver: true,
      bot: { detected: true, kind: "headless_chrome" },
      user_agent:
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      client_hints: { brands: [{ brand: "HeadlessChrome", version: "131" }], mobile: false, platform: "Linux" },
      platform: "Linux x86_64",
      languages: [],
      headless_hints: ["HeadlessChrome in the user agent", "no plugins in desktop Chrome"],
    };
    const res = await check(ws.apiKey, { device, ip: IP });
    expect(res.body.automation.verdict).toBe("automated");
    expect(res.body.automation.reasons).toEqual([
      "navigator.webdriver is true: the browser is driven by automation (WebDriver, Puppeteer, Playwright).",
      "The in-page bot detector flagged the browser as headless Chrome.",
      "The user agent names HeadlessChrome.",
    ]);
    expect(res.body.risk.signals.map((s: any) => [s.code, s.weight])).toEqual([["device_automation", 40]]);
    expect(res.body.risk.score).toBe(40);
  });

  it.each([
    ["headless_chrome", "The in-page bot detector flagged the browser as headless Chrome."],
    ["selenium", "The in-page bot detector flagged the browser as Selenium."],
    ["phantomjs", "The in-page bot detector flagged the browser as PhantomJS."],
    ["unknown", "The in-page bot detector flagged the browser."],
    ["<b>made_up</b>", "The in-page bot detector flagged the browser."],
    ["constructor", "The in-page bot detector flagged the browser."],
  ])("the bot detector's kind %s is said in words", async (kind, reason) => {
    const ws = await app.seedWorkspace();
    const res = await check(ws.apiKey, {
      device: { ...humanChrome(`botkind${kind.length}0001`), bot: { detected: true, kind } },
    });
    expect(res.body.automation.reasons).toEqual([reason]);
  });

  it("flags a spoofed user agent, a time zone far from the IP and two headless markers", async () => {
    const ws = await app.seedWorkspace();
    const device = {
      ...humanChrome("spoofer00001"),
      user_agent:
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
      timezone: "Asia/Tokyo",
      headless_hints: ["window.chrome is missing in Chrome", "the window has no outer size"],
    };
    const res = await check(ws.apiKey, { device, ip: IP });
    expect(res.body.automation.verdict).toBe("suspicious");
    const codes = res.body.risk.signals.map((s: any) => [s.code, s.weight]);
    expect(codes).toEqual([
      ["device_headless", 20],
      ["device_ua_mismatch", 15],
      ["device_timezone_mismatch", 10],
    ]);
    expect(res.body.risk.score).toBe(45);
    const tz = res.body.consistency.find((c: any) => c.check === "timezone_vs_ip");
    expect(tz.reason).toBe(
      "The browser says Asia/Tokyo (UTC+9) but the IP is located in Mountain View, United States (by its longitude, local time near UTC-8, more than 3 hours from the browser's): a proxy, VPN or spoofed time zone.",
    );
  });

  it("counts accounts and IPs per device in the workspace only", async () => {
    const ws = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    const device = humanChrome("farmdevice01");
    await check(other.apiKey, { device, user_id: "elsewhere", ip: "1.1.1.1" });
    for (const [i, ip] of ["8.8.8.8", "8.8.4.4", "1.0.0.1"].entries())
      await check(ws.apiKey, { device, user_id: `acct-${i}`, email: `u${i}@example.com`, ip });
    const res = await check(ws.apiKey, { device, user_id: "acct-3", ip: "9.9.9.9" });
    expect(res.body.velocity).toEqual({ window_minutes: 60, accounts: 4, emails: 3, ips: 4 });
    expect(res.body.risk.signals.map((s: any) => s.code)).toContain("device_many_accounts");
  });
});

describe("input, capability and cost", () => {
  it("refuses a malformed device object with 400 at no cost", async () => {
    const ws = await app.seedWorkspace();
    for (const device of [{}, { visitor_id: "x" }, { visitor_id: "validvisitor", languages: "en" }]) {
      const res = await check(ws.apiKey, { device });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("Free is 403 CAPABILITY_REQUIRED and an exhausted allowance 402, both at no cost", async () => {
    const free = await app.seedWorkspace({ plans: ["free"] });
    expect((await check(free.apiKey, { device: humanChrome() })).body.error.code).toBe("CAPABILITY_REQUIRED");
    const full = await app.seedWorkspace({ plans: ["suite_starter"], usedUnits: 1000 });
    expect((await check(full.apiKey, { device: humanChrome() })).status).toBe(402);
    expect(await app.used(free.workspaceId)).toBe(0);
    expect(await app.db.deviceObservation.count({ where: { workspaceId: full.workspaceId } })).toBe(0);
  });

  it("the dashboard's tRPC endpoint runs the same procedure with the same capability and cost", async () => {
    const user = await ensureUser(app.db, { email: "device-dashboard@example.test" });
    const free = await createWorkspace(app.db, {
      name: "free",
      plans: ["free"],
      ownerEmail: user.email,
      ownerUserId: user.id,
    });
    const paid = await createWorkspace(app.db, {
      name: "paid",
      plans: ["suite_starter"],
      ownerEmail: user.email,
      ownerUserId: user.id,
    });
    const call = (workspaceId: string) =>
      handleDashboardRequest(
        new Request("http://127.0.0.1:3000/api/trpc/device.check", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: "http://127.0.0.1:3000",
            "x-service-workspace": workspaceId,
          },
          body: JSON.stringify({ device: humanChrome("dashboardvisitor"), ip: IP }),
        }),
        async () => ({ userId: user.id, email: user.email, name: null }),
      );
    const denied = await call(free.workspaceId);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as any).error.data.appCode).toBe("CAPABILITY_REQUIRED");
    expect(await app.used(free.workspaceId)).toBe(0);
    expect(await app.ledgerCount(free.workspaceId)).toBe(0);
    expect(await app.db.deviceObservation.count({ where: { workspaceId: free.workspaceId } })).toBe(0);
    const ok = await call(paid.workspaceId);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result.data).toMatchObject({
      device_id: expect.stringMatching(/^dev_/),
      automation: { verdict: "human" },
    });
    expect(await app.used(paid.workspaceId)).toBe(1);
    expect(await app.ledgerCount(paid.workspaceId)).toBe(1);
  });
});
