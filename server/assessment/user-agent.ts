// User-Agent heuristics for events a person performs in a browser or app. API events are skipped: scripts and
// HTTP libraries are the normal clients there.
import type { AssessRequest, Signal } from "./schemas";

/** Tokens of headless browsers, browser automation and HTTP libraries; a person's browser sends none of them. */
const AUTOMATION: { pattern: RegExp; name: string }[] = [
  { pattern: /HeadlessChrome/i, name: "headless Chrome" },
  { pattern: /PhantomJS/i, name: "PhantomJS" },
  { pattern: /\bSlimerJS\b/i, name: "SlimerJS" },
  { pattern: /\b(Selenium|WebDriver)\b/i, name: "Selenium/WebDriver" },
  { pattern: /\b(Puppeteer|Playwright)\b/i, name: "Puppeteer/Playwright" },
  { pattern: /^curl\//i, name: "curl" },
  { pattern: /^Wget\//i, name: "Wget" },
  { pattern: /python-requests|python-urllib|aiohttp|httpx|\bScrapy\b/i, name: "a Python HTTP library" },
  { pattern: /Go-http-client/i, name: "Go's HTTP client" },
  { pattern: /^(Java\/|Apache-HttpClient|okhttp)/i, name: "a Java HTTP library" },
  { pattern: /^(axios|node-fetch|undici|got)\b/i, name: "a Node.js HTTP library" },
  { pattern: /libwww-perl|^PostmanRuntime|^Insomnia/i, name: "a scripting or API tool" },
  { pattern: /\b(bot|crawler|spider)\b/i, name: "a self-declared bot" },
];

export function userAgentSignals(req: AssessRequest): Signal[] {
  if (req.event === "api") return [];
  const ua = req.user_agent?.trim() ?? "";
  if (!ua) {
    return [{ code: "ua_missing", weight: 15, reason: "No User-Agent was sent: every browser sends one, scripts often do not. Pass the end user's User-Agent header.", evidence: ["request"] }];
  }
  const hit = AUTOMATION.find((a) => a.pattern.test(ua));
  if (hit) {
    return [{ code: "ua_automation", weight: 35, reason: `The User-Agent identifies ${hit.name}, not a person's browser: likely automated traffic. Challenge or block it.`, evidence: ["request"] }];
  }
  if (ua.length < 20 || !/Mozilla\/|Opera\/|Dalvik\/|CFNetwork\//.test(ua)) {
    return [{ code: "ua_unusual", weight: 10, reason: "The User-Agent does not look like a mainstream browser or app.", evidence: ["request"] }];
  }
  return [];
}
