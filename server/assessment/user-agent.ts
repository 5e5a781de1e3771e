// User-Agent heuristics for events a person performs in a browser or app. API events are skipped: scripts and
// HTTP libraries are the normal clients there. A user agent that names a known crawler or monitor is judged with
// the address instead (server/assessment/ip-evidence.ts): verified when the address is in that crawler's ranges,
// spoofed when it is not.
import type { AssessRequest, Signal } from "./schemas";
import { signalWeight } from "../scoring/score";

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

export interface KnownCrawler {
  /** The crawler or monitor as its operator names it. */
  name: string;
  /** The feed of its published ranges. */
  feed: string;
}

/** User-agent tokens of crawlers and monitors whose operators publish their ranges (one feed each). */
const KNOWN_CRAWLERS: (KnownCrawler & { pattern: RegExp })[] = [
  {
    pattern: /Googlebot|Google-InspectionTool|GoogleOther|Storebot-Google|AdsBot-Google/i,
    name: "Googlebot",
    feed: "crawler-googlebot",
  },
  { pattern: /bingbot|BingPreview|adidxbot/i, name: "Bingbot", feed: "crawler-bing" },
  { pattern: /DuckAssistBot/i, name: "DuckAssistBot", feed: "crawler-duckassistbot" },
  { pattern: /DuckDuckBot/i, name: "DuckDuckBot", feed: "crawler-duckduckbot" },
  { pattern: /GPTBot|OAI-SearchBot|ChatGPT-User/i, name: "OpenAI's crawler", feed: "crawler-openai" },
  { pattern: /PerplexityBot|Perplexity-User/i, name: "PerplexityBot", feed: "crawler-perplexity" },
  { pattern: /Pingdom\.com_bot|PingdomPageSpeed/i, name: "Pingdom", feed: "monitor-pingdom" },
  { pattern: /StatusCake/i, name: "StatusCake", feed: "monitor-statuscake" },
];

export function claimedCrawler(userAgent: string | undefined): KnownCrawler | null {
  if (!userAgent) return null;
  const hit = KNOWN_CRAWLERS.find((c) => c.pattern.test(userAgent));
  return hit ? { name: hit.name, feed: hit.feed } : null;
}

export function userAgentSignals(req: AssessRequest): Signal[] {
  if (req.event === "api") return [];
  const ua = req.user_agent?.trim() ?? "";
  if (!ua) {
    return [
      {
        code: "ua_missing",
        weight: signalWeight("ua_missing", req.event),
        reason:
          "No User-Agent was sent: every browser sends one, scripts often do not. Pass the end user's User-Agent header.",
        evidence: ["request"],
      },
    ];
  }
  if (claimedCrawler(ua)) return [];
  const hit = AUTOMATION.find((a) => a.pattern.test(ua));
  if (hit) {
    return [
      {
        code: "ua_automation",
        weight: signalWeight("ua_automation", req.event),
        reason: `The User-Agent identifies ${hit.name}, not a person's browser: likely automated traffic.`,
        evidence: ["request"],
      },
    ];
  }
  if (ua.length < 20 || !/Mozilla\/|Opera\/|Dalvik\/|CFNetwork\//.test(ua)) {
    return [
      {
        code: "ua_unusual",
        weight: signalWeight("ua_unusual", req.event),
        reason: "The User-Agent does not look like a mainstream browser or app.",
        evidence: ["request"],
      },
    ];
  }
  return [];
}
