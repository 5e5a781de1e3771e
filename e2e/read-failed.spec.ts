// One pattern for a read that failed, on every dashboard page: when the service answers a page's reads with a
// failure that reading again may lift (503, or no answer at all), each part that reads data says "<what> could not
// be read." in words (plus "Could not reach the service." when nothing answered), never the service's message, a raw
// code, an empty state or a loading state that never ends, with a Retry button that is a keyboard stop and re-runs
// the read. Once the reads answer again, Retry shows the data and the keyboard's focus lands inside the page, not on
// <body>. Walked at 390 px (the note and its button fit) with one workspace on every plan.
import { expect, test, type Page, type Route } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

// What the service might say when it fails: an operator's hint that a user view must not repeat.
const OPERATOR_MESSAGE = "Connection pool exhausted: raise SERVICE_DB_POOL_SIZE and restart the server.";
// (Not "503" alone: the console's descriptions of the API name its statuses.)
const SAID_RAW = /SERVICE_DB_POOL_SIZE|UPSTREAM_UNAVAILABLE|SERVICE_UNAVAILABLE|INTERNAL_SERVER_ERROR|Failed to fetch/;
const UNREACHABLE = "Could not reach the service. Check your connection and try again.";

type How = "503" | "offline";

/** Fails every read (tRPC queries: GET) the way `how` says; mutations (POST) reach the server. */
function failReads(how: How) {
  return async (route: Route) => {
    if (route.request().method() !== "GET") return route.continue();
    if (how === "offline") return route.abort("connectionrefused");
    const paths = new URL(route.request().url()).pathname.replace(/^\/api\/trpc\//, "").split(",");
    const error = {
      message: OPERATOR_MESSAGE,
      code: -32603,
      data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503, appCode: "UPSTREAM_UNAVAILABLE" },
    };
    return route.fulfill({ status: 503, json: paths.map(() => ({ error })) });
  };
}

// Every page of the navigation, and the detail pages a link opens (their ids need not exist: every read fails, and
// once they answer, "not found" is an answer, not a failed read).
const PAGES: [string, How][] = [
  ["/dashboard", "503"],
  ["/dashboard/console", "offline"],
  ["/dashboard/assess", "503"],
  ["/dashboard/rules", "offline"],
  ["/dashboard/cases", "503"],
  ["/dashboard/users/alice%40example.test", "offline"],
  ["/dashboard/lists", "503"],
  ["/dashboard/weights", "offline"],
  ["/dashboard/bulk", "503"],
  ["/dashboard/scans", "offline"],
  ["/dashboard/monitors", "503"],
  ["/dashboard/monitors/mon_doesnotexist", "offline"],
  ["/dashboard/monitors/new", "503"],
  ["/dashboard/device", "503"],
  ["/dashboard/vulnerabilities", "offline"],
  ["/dashboard/projects", "503"],
  ["/dashboard/projects?project=acme%2Fweb", "offline"],
  ["/dashboard/reports", "503"],
  ["/dashboard/events", "offline"],
  ["/dashboard/analytics", "503"],
  ["/dashboard/history", "offline"],
  ["/dashboard/links", "503"],
  ["/dashboard/webhooks", "offline"],
  ["/dashboard/webhooks/wh_doesnotexist", "503"],
  ["/dashboard/keys", "offline"],
  ["/dashboard/plan", "503"],
  ["/dashboard/members", "offline"],
  ["/dashboard/senders", "503"],
  ["/dashboard/sources", "offline"],
];

// Pages to keep screenshots of, failed and after Retry, at both widths.
const SNAPPED = new Set(["/dashboard", "/dashboard/cases", "/dashboard/keys", "/dashboard/monitors"]);

async function walk(page: Page, path: string, how: How, shots: (name: string) => Promise<void>) {
  const handler = failReads(how);
  await page.route("**/api/trpc/**", handler);
  await page.goto(path);
  const main = page.locator("main");
  const notes = main.locator("[data-read-failed]");
  await expect(notes.first(), `${path}: a failed read is said`).toBeVisible({ timeout: 15_000 });
  // Every part has failed by now: give the page a moment to draw the others.
  await page.waitForLoadState("networkidle");
  await expect(main, `${path}: no raw code, operator hint or exception text`).not.toContainText(SAID_RAW);
  await expect(main, `${path}: no loading state left`).not.toContainText(/Loading|Reading…/);
  for (const note of await notes.all()) {
    await expect(note, `${path}: said in words`).toContainText("could not be read.");
    if (how === "offline") await expect(note).toContainText(UNREACHABLE);
    const retry = note.getByRole("button", { name: "Retry" });
    await expect(retry, `${path}: Retry can be pressed`).toBeEnabled();
    expect(await retry.evaluate((b) => b.tabIndex), `${path}: Retry is a keyboard stop`).toBeGreaterThanOrEqual(0);
    const box = await note.boundingBox();
    expect(box && box.x + box.width, `${path}: the note fits at 390 px`).toBeLessThanOrEqual(390);
  }
  await shots("failed");
  await page.unroute("**/api/trpc/**", handler);
  // Retry from the keyboard: it reads its part again, and the page's other failed reads with it (they failed for the
  // same reason), so one press brings the whole page back.
  const retry = notes.first().getByRole("button", { name: "Retry" });
  await retry.focus();
  await expect(retry).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(notes, `${path}: every part answered after one Retry`).toHaveCount(0);
  await expect(main).not.toContainText(/Loading|Reading…/);
  // The pressed button went away with its note: the focus lands on the heading of the part it was in (or of the
  // page), where a keyboard or screen reader user goes on from, not on <body>.
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const el = document.activeElement;
          return el?.matches("main :is(h1, h2, h3, h4)") ? "a heading" : (el?.outerHTML.slice(0, 120) ?? "nothing");
        }),
      { message: `${path}: the focus after Retry is on a heading of the page, not on <body>` },
    )
    .toBe("a heading");
  await shots("after-retry");
}

test("every dashboard page says a failed read in words with Retry, and Retry reads it and keeps the focus", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  await newWorkspace(page, "ReadFailedWalk", ["suite_agency", "email", "lookups_growth"]);
  await page.setViewportSize({ width: 390, height: 844 });
  const problems: string[] = [];
  for (const [path, how] of PAGES) {
    const slug = path.replace(/^\/dashboard\/?/, "").replace(/[^a-z0-9]+/gi, "-") || "overview";
    const shots = async (state: string) => {
      if (!SNAPPED.has(path)) return;
      await snap(page, testInfo, `read-failed-${slug}-${state}-390`);
      await page.setViewportSize({ width: 1280, height: 900 });
      await snap(page, testInfo, `read-failed-${slug}-${state}-1280`);
      await page.setViewportSize({ width: 390, height: 844 });
    };
    try {
      await walk(page, path, how, shots);
    } catch (err) {
      problems.push(`${path} (${how}): ${(err as Error).message.split("\n").slice(0, 12).join(" ")}`);
      await page.unrouteAll({ behavior: "ignoreErrors" });
    }
  }
  expect(problems, "pages without the pattern").toEqual([]);
});

test("after Retry, a click elsewhere keeps the focus where the person put it while the page redraws", async ({
  page,
}) => {
  await newWorkspace(page, "ReadFailedMovedOn", ["suite_agency"]);
  const fail = failReads("503");
  await page.route("**/api/trpc/**", fail);
  await page.goto("/dashboard/keys");
  const notes = page.locator("main [data-read-failed]");
  await expect(notes.first()).toBeVisible({ timeout: 15_000 });
  await page.waitForLoadState("networkidle");
  await page.unroute("**/api/trpc/**", fail);
  // The reads of the Retry are held, so the page redraws after the person has clicked elsewhere.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    if (route.request().method() === "GET") await held;
    return route.continue();
  };
  await page.route("**/api/trpc/**", hold);
  const retry = notes.first().getByRole("button", { name: "Retry" });
  await retry.focus();
  await page.keyboard.press("Enter");
  await expect(notes).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.activeElement?.matches("main :is(h1, h2, h3, h4)"))).toBe(true);
  // A click on the page's text: the focus goes to the page's main (focusable, tabindex -1), the person's choice.
  const text = page.locator("main p:visible").first();
  await text.click();
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
  release();
  await expect(
    page
      .locator("main")
      .getByRole("heading", { name: /API keys/i })
      .first(),
  ).toBeVisible();
  await page.waitForLoadState("networkidle");
  // The redraw did not take the focus back to a heading: watched for a second, well inside the 5 s in which
  // ReadFailed puts back a focus that dropped (without the fix it was on the heading within 300 ms).
  await page.waitForTimeout(1_000);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
  await page.unroute("**/api/trpc/**", hold);
});
