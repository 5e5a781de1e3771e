// A newcomer's walk with the keyboard through reads that fail (a helper's walk): the abuse contact asked for from an
// IP answer, a Retry that fails again, and a part whose read runs again on its own (a mutation's refresh, a poll)
// while its failure is shown. Each read is failed at the browser with the answer the service gives when a source is
// down (503), so the rest of the page keeps working.
import { expect, test, type Page, type Route } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

const UNAVAILABLE = {
  message: "ARIN RDAP: RDAP server could not be reached.",
  code: -32603,
  data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503, appCode: "UPSTREAM_UNAVAILABLE" },
};

type Mode = "fail" | "hold" | "pass";

/**
 * Fails (or holds, then fails) the reads of one procedure; the other calls of a batch get their real answers. `seen`
 * counts the reads of it answered so far; `arrived` resolves when a held read reaches the browser's network layer,
 * and `release()` lets it through (failed, or with its real answer once the mode is "pass").
 */
function failProcedure(procedure: string) {
  let markArrived = () => {};
  let held = Promise.resolve();
  const state = {
    mode: "fail" as Mode,
    seen: 0,
    arrived: Promise.resolve(),
    release: () => {},
    /** The next read of it waits at the network until release(). */
    hold() {
      state.mode = "hold";
      state.arrived = new Promise<void>((r) => (markArrived = r));
      held = new Promise<void>((r) => (state.release = r));
    },
  };
  const handler = async (route: Route) => {
    const url = new URL(route.request().url());
    const paths = url.pathname.replace(/^\/api\/trpc\//, "").split(",");
    if (route.request().method() !== "GET" || !paths.includes(procedure)) return route.continue();
    if (state.mode === "hold") {
      markArrived();
      await held;
    }
    if (state.mode === "pass") {
      state.seen++;
      return route.continue();
    }
    const real = paths.length > 1 ? ((await (await route.fetch()).json()) as unknown[]) : [];
    state.seen++;
    return route.fulfill({
      status: paths.length > 1 ? 207 : 503,
      json: paths.map((p, i) => (p === procedure ? { error: UNAVAILABLE } : real[i])),
    });
  };
  return { state, handler };
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    const note = el.closest("[data-read-failed]");
    return `${el.tagName.toLowerCase()}${note ? " in a note" : ""}: ${(el.textContent ?? "").trim().slice(0, 40)}`;
  });

test("the abuse contact asked for from the keyboard keeps the focus in the answer, and a Retry that fails again keeps it on Retry", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "AbuseKeys", ["suite_starter"]);
  const abuseReads = failProcedure("abuse.ipAbuse");
  await page.route("**/api/trpc/**", abuseReads.handler);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/console");
  await page.locator('[data-procedure="ip.ipLookup"]').click();
  await page.getByTestId("lookup-panel").getByLabel("IP address").fill("8.8.8.8");
  await page.getByTestId("run-lookup").click();
  const card = page.getByTestId("result-view").getByTestId("answer-card");
  const find = card.getByRole("button", { name: "Find the abuse contact (1 unit)" });
  await find.focus();
  await page.keyboard.press("Enter");
  const abuse = card.getByTestId("abuse-contact");
  const note = abuse.locator("[data-read-failed]");
  await expect(note).toContainText("The abuse contact could not be read.");
  // The pressed button went away: the focus is on the part that took its place, not on <body>.
  await expect
    .poll(() => page.evaluate(() => !!document.activeElement?.closest("[data-testid=abuse-contact]")), {
      message: "the focus after asking for the abuse contact",
    })
    .toBe(true);
  // The next stop is the note's Retry.
  await page.keyboard.press("Tab");
  const retry = note.getByRole("button", { name: "Retry" });
  await expect(retry).toBeFocused();
  await snap(page, testInfo, "abuse-failed-390");
  await page.keyboard.press("Enter");
  await expect.poll(() => abuseReads.state.seen).toBe(2);
  await expect(note).toBeVisible();
  // It failed again: the focus is back on the note's Retry, where the person can press it once more.
  await expect
    .poll(() => focused(page), { message: "the focus after a Retry that failed again" })
    .toBe("button in a note: Retry");
});

test("a Retry that fails again keeps the focus on Retry", async ({ page }) => {
  await newWorkspace(page, "RetryAgain", ["suite_agency"]);
  const keyReads = failProcedure("account.keys");
  await page.route("**/api/trpc/**", keyReads.handler);
  await page.goto("/dashboard/keys");
  const note = page.getByTestId("keys-read-error");
  await expect(note).toContainText("The keys could not be read.");
  const seen = keyReads.state.seen;
  await note.getByRole("button", { name: "Retry" }).focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => keyReads.state.seen).toBe(seen + 1);
  await expect(note).toBeVisible();
  await expect
    .poll(() => focused(page), { message: "the focus after a Retry that failed again" })
    .toBe("button in a note: Retry");
  // It reads again once the service answers: the focus goes to the part's heading, as before.
  keyReads.state.mode = "pass";
  await page.keyboard.press("Enter");
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId("keys-table")).toContainText("Default key");
});

test("a failed part whose read runs again on its own keeps saying Retry; a pressed Retry says Retrying…", async ({
  page,
}) => {
  await newWorkspace(page, "RetryLabel", ["suite_agency"]);
  await page.goto("/dashboard/keys");
  await expect(page.getByTestId("keys-table")).toContainText("Default key");
  const keyReads = failProcedure("account.keys");
  await page.route("**/api/trpc/**", keyReads.handler);
  // (The new key is shown once the list's refresh has ended.)
  const create = async (name: string) => {
    await page.getByLabel("Key name").fill(name);
    await page.getByRole("button", { name: "Create key" }).click();
  };
  // A new key refreshes the list, whose read fails: the list says so.
  await create("Second");
  await expect(page.getByTestId("new-api-key")).toBeVisible();
  const note = page.getByTestId("keys-read-error");
  const retry = note.getByRole("button", { name: /^Retry/ });
  await expect(note).toContainText("The keys could not be read.");
  // Another key refreshes it again while the failure is shown (as a poll does), held at the network: nobody
  // pressed Retry, so it does not say "Retrying…".
  keyReads.state.hold();
  await create("Third");
  await keyReads.state.arrived;
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r))));
  await expect(retry).toHaveText("Retry");
  await expect(retry).not.toHaveAttribute("aria-busy", "true");
  keyReads.state.release();
  await expect.poll(() => keyReads.state.seen).toBeGreaterThanOrEqual(2);
  // The person's own press does say so while it runs.
  keyReads.state.hold();
  await retry.focus();
  await page.keyboard.press("Enter");
  await keyReads.state.arrived;
  await expect(retry).toHaveText("Retrying…");
  keyReads.state.mode = "pass";
  keyReads.state.release();
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId("keys-table")).toContainText("Third");
});
