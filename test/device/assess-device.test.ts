// POST /v1/assess with the `device` object: device signals and per-device velocity move the score with reasons.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { IP, humanChrome } from "./signals";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const assess = (key: string, body: Record<string, unknown>) =>
  app.request("POST", "/v1/assess", { key, body: { event: "signup", ip: IP, ...body } });

describe("assessments with a device", () => {
  it("an ordinary browser adds no device signal and reports the device", async () => {
    const ws = await app.seedWorkspace();
    const res = await assess(ws.apiKey, { device: humanChrome("assesshuman1") });
    expect(res.status).toBe(200);
    expect(res.body.device).toEqual({ device_id: expect.stringMatching(/^dev_/), verdict: "human", risk_score: 0 });
    expect(res.body.signals.filter((s: any) => s.code.startsWith("device_"))).toEqual([]);
  });

  it("an automated browser raises the score by the device weight, with its reason", async () => {
    const ws = await app.seedWorkspace();
    const base = await assess(ws.apiKey, { device: humanChrome("assessbase01") });
    const res = await assess(ws.apiKey, { device: { ...humanChrome("assessbot001"), webdriver: true } });
    expect(res.body.device.verdict).toBe("automated");
    expect(res.body.signals).toContainEqual({
      code: "device_automation",
      weight: 40,
      reason: "navigator.webdriver is true: the browser is driven by automation (WebDriver, Puppeteer, Playwright).",
      evidence: ["device-signals"],
    });
    expect(res.body.score).toBe(Math.min(100, base.body.score + 40));
  });

  it("many accounts on one device move the score (per-device velocity)", async () => {
    const ws = await app.seedWorkspace();
    const device = humanChrome("assessfarm01");
    for (let i = 0; i < 2; i++)
      await assess(ws.apiKey, { device, user_id: `acct-${i}`, email: `farm${i}@example.com` });
    const res = await assess(ws.apiKey, { device, user_id: "acct-2", email: "farm2@example.com" });
    const signal = res.body.signals.find((s: any) => s.code === "device_many_accounts");
    expect(signal).toMatchObject({
      weight: 20,
      reason: "3 different accounts used this device in the last 60 minutes.",
    });
    expect(res.body.sources.map((s: any) => s.name)).toContain("device-signals");
  });

  it("a malformed device object is 400 before any unit", async () => {
    const ws = await app.seedWorkspace();
    const res = await assess(ws.apiKey, { device: { visitor_id: "short" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});
