// Page weight and time to first content of /docs and every dashboard page in Chromium, against a production
// server started for this run (embedded store): each page's first visit after the start, then warm visits. The
// targets (issue 22): /docs under 300 KB of HTML, every page under 1 s warm and under 2 s on its first visit.
// Prints one JSON line (PageFigures) for bench/in-process.ts.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../scripts/browser.mjs";
import { pagesToWarm } from "../scripts/warm-pages.mjs";
import { ensureBuild } from "./build";
import { startService } from "./service";
import { openStore } from "./stores";
import type { PageFigures, PageTiming } from "./pages";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const WARM_VISITS = 3;

/** A session cookie through the development sign-in, over HTTP: no page is loaded before the measurement. */
async function signIn(baseUrl: string, email: string): Promise<string[]> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signed = await fetch(`${baseUrl}/api/auth/callback/dev`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: `${baseUrl}/dashboard`, json: "true" }),
  });
  keep(signed);
  const created = await fetch(`${baseUrl}/api/trpc/account.createWorkspace`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: cookie(), origin: baseUrl },
    body: JSON.stringify({ name: "Bench pages" }),
  });
  if (!created.ok) throw new Error(`creating the workspace answered ${created.status}: ${await created.text()}`);
  return [...jar].map(([k, v]) => `${k}=${v}`);
}

async function main(): Promise<void> {
  ensureBuild(root);
  const outcome = await openStore("pglite", "");
  if (!outcome.ok) throw new Error(outcome.reason);
  const store = outcome.store;
  const svc = await startService(root, store, { SERVICE_DEV_SIGNIN: "1" }, null);
  const browser = await chromium.launch({
    executablePath: findChromium()?.path ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    const cookies = await signIn(svc.baseUrl, `bench-${Date.now()}@example.test`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies(
      cookies.map((c) => {
        const at = c.indexOf("=");
        return { name: c.slice(0, at), value: c.slice(at + 1), url: svc.baseUrl };
      }),
    );
    /** One visit: the HTML's bytes, the answer's time and the first contentful paint, from navigation start. */
    const visit = async (pathname: string) => {
      const page = await context.newPage();
      try {
        const res = await page.goto(`${svc.baseUrl}${pathname}`, { waitUntil: "load", timeout: 120_000 });
        if (!res || res.status() >= 400) throw new Error(`${pathname} answered ${res?.status()}`);
        const html = await res.body();
        // A string, not a function: tsx compiles named functions with a helper (__name) the page does not have.
        const timing = (await page.evaluate(`(async () => {
          const paint = () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime;
          for (let i = 0; i < 100 && paint() === undefined; i++) await new Promise((r) => setTimeout(r, 50));
          const nav = performance.getEntriesByType("navigation")[0];
          return { responseMs: nav.responseEnd, firstContentMs: paint() ?? nav.loadEventEnd };
        })()`)) as { responseMs: number; firstContentMs: number };
        return { bytes: html.byteLength, ...timing };
      } finally {
        await page.close();
      }
    };
    const pages: PageTiming[] = [];
    // /docs and every dashboard page of the build (the list the server warms; /docs/operations is a fragment).
    const paths = pagesToWarm(path.join(root, process.env.SERVICE_NEXT_DIST_DIR || ".next"));
    for (const pathname of paths.filter((p) => p !== "/docs/operations")) {
      const first = await visit(pathname);
      const warm: number[] = [];
      for (let i = 0; i < WARM_VISITS; i++) warm.push((await visit(pathname)).firstContentMs);
      warm.sort((a, b) => a - b);
      pages.push({
        path: pathname,
        htmlBytes: first.bytes,
        firstVisitMs: first.firstContentMs,
        firstVisitResponseMs: first.responseMs,
        warmMs: warm[Math.floor(warm.length / 2)]!,
      });
    }
    const figures: PageFigures = { store: "pglite", warmVisits: WARM_VISITS, pages };
    console.log(JSON.stringify(figures));
  } finally {
    await browser.close();
    await svc.stop();
    await store.cleanup();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
