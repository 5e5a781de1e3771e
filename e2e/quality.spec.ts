// Quality on every page: the dashboard pages are read from the side navigation's own list (Nav.tsx), so a page
// added there is checked without touching this file, plus /, /docs and /signin. Each page must answer (a 404 fails
// with its path), fit 390 px without horizontal scrolling, pass axe with no serious or critical violation, and show
// where keyboard focus is. A screenshot of every page at 390 and 1280 px is kept as an artifact (of the whole page,
// except the API reference, whose full height takes a minute to capture: its screenshot is what is in view).
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { seriousViolations } from "./axe";
import { newWorkspace } from "./dashboard-steps";

const navSource = readFileSync(path.join(process.cwd(), "app/dashboard/_components/Nav.tsx"), "utf8");
const listSource = navSource.slice(navSource.indexOf("DASHBOARD_LINKS"), navSource.indexOf("] as const"));
const NAV_PAGES = [...listSource.matchAll(/href:\s*"([^"]+)"/g)].map((m) => m[1]);
const PUBLIC_PAGES = ["/", "/docs", "/signin"];

// The pages are independent: they may run on every worker (each signs in once, in beforeAll), so this long file does
// not finish alone at the end of the run.
test.describe.configure({ mode: "parallel" });

let storageState: Awaited<ReturnType<ReturnType<Page["context"]>["storageState"]>> | undefined;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The widest plan, so that every page shows its full form rather than a plan notice.
  await newWorkspace(page, "Quality", ["suite_agency"]);
  storageState = await context.storageState();
  await context.close();
});

async function settle(page: Page) {
  // Not "networkidle": some pages poll (usage, deliveries) and never go quiet.
  await page.waitForLoadState("load");
  // Pages show "Loading…" while their first queries run; wait for them to end (or for an error state).
  await expect(page.getByText(/^Loading\b/)).toHaveCount(0, { timeout: 15_000 });
}

test("the side navigation lists exactly the pages this spec checks", async ({ browser }) => {
  const context = await browser.newContext({ storageState });
  const page = await context.newPage();
  await page.goto("/dashboard");
  const hrefs = await page.locator("nav.side-nav a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  expect(hrefs.filter((h) => h?.startsWith("/dashboard"))).toEqual(NAV_PAGES);
  await context.close();
});

for (const url of [...NAV_PAGES, ...PUBLIC_PAGES]) {
  test(`${url} fits 390 px, passes axe and shows keyboard focus`, async ({ browser }, testInfo) => {
    // The reference holds every operation: axe takes longer over it on a 2-core machine (2.6 min once, when the
    // machine was also building and running other suites).
    if (url === "/docs") test.setTimeout(360_000);
    const signedIn = url.startsWith("/dashboard");
    const context = await browser.newContext({
      storageState: signedIn ? storageState : undefined,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    const name = url === "/" ? "home" : url.slice(1).replace(/\//g, "-");
    try {
      const res = await page.goto(url);
      expect(res?.status(), `${url} answered ${res?.status()} (a 404 means the page is missing)`).toBeLessThan(400);
      await expect(page.locator("h1").first()).toBeVisible();
      await settle(page);

      const overflow = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        view: window.innerWidth,
      }));
      expect(overflow.page, `${url} scrolls sideways at 390 px`).toBeLessThanOrEqual(overflow.view + 1);
      // Every action inside main is reachable without sideways scrolling inside a table or a card.
      const offscreen = await page.locator("main").evaluate((main) =>
        [...main.querySelectorAll("button, a[href]")]
          .filter((el) => (el as HTMLElement).offsetParent !== null)
          .map((el) => ({ text: (el.textContent ?? "").trim().slice(0, 40), right: el.getBoundingClientRect().right }))
          .filter((b) => b.right > window.innerWidth + 1)
          .map((b) => `"${b.text}" ends at ${Math.round(b.right)} px`),
      );
      expect(offscreen, `${url}: buttons and links past the right edge at 390 px`).toEqual([]);
      if (signedIn) {
        const header = await page
          .locator(".dash-header")
          .evaluate((h) => ({ scroll: h.scrollWidth, client: h.clientWidth }));
        expect(header.scroll, "the dashboard header wraps instead of overflowing").toBeLessThanOrEqual(
          header.client + 1,
        );
      }
      const file390 = testInfo.outputPath(`${name}-390.png`);
      await page.screenshot({ path: file390, fullPage: url !== "/docs" });
      await testInfo.attach(`${name}-390`, { path: file390, contentType: "image/png" });
      expect(await seriousViolations(page), `axe on ${url} at 390 px`).toEqual([]);

      // Keyboard: the first Tab stops (up to three; a short page may have fewer) show a visible focus indicator.
      let reached = 0;
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press("Tab");
        const focus = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return null;
          const s = getComputedStyle(el);
          return {
            tag: el.tagName,
            text: (el.textContent ?? "").trim().slice(0, 40),
            outline: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0,
            shadow: s.boxShadow !== "none",
          };
        });
        if (!focus) break;
        reached++;
        expect(focus.outline || focus.shadow, `${url}: focus on ${focus.tag} "${focus.text}" is visible`).toBe(true);
      }
      expect(reached, `${url}: Tab reaches an element`).toBeGreaterThan(0);

      await page.setViewportSize({ width: 1280, height: 900 });
      const file1280 = testInfo.outputPath(`${name}-1280.png`);
      await page.screenshot({ path: file1280, fullPage: url !== "/docs" });
      await testInfo.attach(`${name}-1280`, { path: file1280, contentType: "image/png" });
      expect(await seriousViolations(page), `axe on ${url} at 1280 px`).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
