// The device diagnosis: automation verdict, consistency checks, per-device velocity and the risk contribution,
// each signal with its weight (server/device/weights.ts) and a reason a person can act on.
import { velocityWindowMinutes } from "../assessment/config";
import type { Db } from "../db/client";
import { consistencyChecks } from "./consistency";
import { deviceIdOf, observeDevice, type DeviceVelocity } from "./observations";
import type { DeviceDiagnosis, DeviceSignal, DeviceSignals } from "./schemas";
import { DEVICE_WEIGHTS, MANY_ACCOUNTS, MANY_IPS, VERY_MANY_ACCOUNTS, type DeviceSignalCode } from "./weights";

const AUTOMATION_UA = /HeadlessChrome|PhantomJS|Puppeteer|Playwright|Selenium|Electron\/|SlimerJS|HtmlUnit/i;

/**
 * The bot detector's (BotD's) kinds by their names. The kind comes from the page, so one outside this list (or its
 * "unknown") is left out of the reason rather than repeated.
 */
const BOT_KIND_NAMES: Record<string, string> = {
  awesomium: "Awesomium",
  cef: "CEF",
  cefsharp: "CefSharp",
  coachjs: "CoachJS",
  electron: "Electron",
  fminer: "FMiner",
  geb: "Geb",
  headless_chrome: "headless Chrome",
  nightmarejs: "NightmareJS",
  phantomas: "Phantomas",
  phantomjs: "PhantomJS",
  rhino: "Rhino",
  selenium: "Selenium",
  sequentum: "Sequentum",
  slimerjs: "SlimerJS",
  webdriver: "WebDriver",
  webdriverio: "WebdriverIO",
};

export function automationOf(d: DeviceSignals): DeviceDiagnosis["automation"] {
  const hard: string[] = [];
  if (d.webdriver === true)
    hard.push("navigator.webdriver is true: the browser is driven by automation (WebDriver, Puppeteer, Playwright).");
  if (d.bot?.detected) {
    const kind = d.bot.kind && Object.hasOwn(BOT_KIND_NAMES, d.bot.kind) ? BOT_KIND_NAMES[d.bot.kind] : undefined;
    hard.push(`The in-page bot detector flagged the browser${kind ? ` as ${kind}` : ""}.`);
  }
  const uaTool = d.user_agent ? AUTOMATION_UA.exec(d.user_agent)?.[0] : undefined;
  if (uaTool) hard.push(`The user agent names ${uaTool}.`);
  if (hard.length) return { verdict: "automated", reasons: hard };
  const hints = d.headless_hints ?? [];
  if (hints.length >= 2) return { verdict: "suspicious", reasons: [`Headless markers: ${hints.join("; ")}.`] };
  return {
    verdict: "human",
    reasons: hints.length
      ? [`One weak headless marker (${hints[0]}), not enough on its own.`]
      : ["No automation or headless markers."],
  };
}

const signal = (code: DeviceSignalCode, reason: string): DeviceSignal => ({
  code,
  weight: DEVICE_WEIGHTS[code],
  reason,
});

export function deviceSignalsOf(
  d: DeviceSignals,
  automation: DeviceDiagnosis["automation"],
  checks: DeviceDiagnosis["consistency"],
  v: DeviceVelocity,
): DeviceSignal[] {
  const out: DeviceSignal[] = [];
  if (automation.verdict === "automated") out.push(signal("device_automation", automation.reasons.join(" ")));
  else if (automation.verdict === "suspicious") out.push(signal("device_headless", automation.reasons.join(" ")));
  const bad = (name: string) => checks.find((c) => c.check === name && c.result === "inconsistent");
  const ua = bad("user_agent_vs_client_hints") ?? bad("user_agent_vs_platform");
  if (ua) out.push(signal("device_ua_mismatch", ua.reason));
  const tz = bad("timezone_vs_ip");
  if (tz) out.push(signal("device_timezone_mismatch", tz.reason));
  const lang = bad("languages");
  if (lang && automation.verdict === "human") out.push(signal("device_no_languages", lang.reason));
  if (v.accounts >= VERY_MANY_ACCOUNTS)
    out.push(
      signal(
        "device_very_many_accounts",
        `${v.accounts} different accounts used this device in the last ${v.window_minutes} minutes: an account farm or shared fraud rig.`,
      ),
    );
  else if (v.accounts >= MANY_ACCOUNTS)
    out.push(
      signal(
        "device_many_accounts",
        `${v.accounts} different accounts used this device in the last ${v.window_minutes} minutes.`,
      ),
    );
  if (v.ips >= MANY_IPS)
    out.push(
      signal(
        "device_many_ips",
        `This device came from ${v.ips} different IP addresses in the last ${v.window_minutes} minutes: rotating proxies.`,
      ),
    );
  return out;
}

export async function diagnoseDevice(
  db: Db,
  a: { workspaceId: string; device: DeviceSignals; ip: string | null; email?: string | null; userId?: string | null },
): Promise<DeviceDiagnosis> {
  const deviceId = deviceIdOf(a.device.visitor_id);
  const automation = automationOf(a.device);
  const consistency = consistencyChecks(a.device, a.ip);
  const velocity = await observeDevice(db, {
    workspaceId: a.workspaceId,
    deviceId,
    ip: a.ip,
    email: a.email ?? null,
    userId: a.userId ?? null,
    windowMinutes: velocityWindowMinutes(),
  });
  const signals = deviceSignalsOf(a.device, automation, consistency, velocity);
  const score = Math.max(
    0,
    Math.min(
      100,
      signals.reduce((n, s) => n + s.weight, 0),
    ),
  );
  return {
    device_id: deviceId,
    automation,
    consistency,
    velocity,
    risk: { score, signals },
    checked_at: new Date().toISOString(),
  };
}
