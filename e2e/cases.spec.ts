import { expect, test, type Page } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { failInBatch, snap, unavailable } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

/** A scripted client's login from a private address, assessed on the dashboard's form: medium risk, decided review. */
async function reviewedLogin(page: Page, userId: string): Promise<void> {
  await page.goto("/dashboard/assess");
  await page.getByLabel("Event").selectOption("login");
  await page.getByLabel("IP address (required)").fill("10.0.0.8");
  await page.getByLabel("User-Agent").fill("python-requests/2.31");
  await page.getByLabel("User id").fill(userId);
  await page.getByTestId("run-assessment").click();
  await expect(page.getByTestId("assessment-answer").getByTestId("decision")).toHaveText("review");
}

test("an analyst works the review queue: a review decision opens a case, the F key resolves it as fraud, and the overview counts what is left", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Cases", ["suite_starter"]);
  await page.goto("/dashboard/cases");
  await expect(page.getByRole("heading", { name: "Review queue", level: 1 })).toBeVisible();
  await expect(page.getByTestId("cases-empty")).toContainText("Nothing to review");

  await reviewedLogin(page, "mallory");

  await page.goto("/dashboard");
  await expect(page.getByTestId("overview-cases")).toContainText("1 open case, the oldest waiting");

  await page.goto("/dashboard/cases");
  await expect(page.getByTestId("cases-summary")).toContainText("1 open case;");
  const card = page.getByTestId("case-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("mallory");
  await card.getByTestId("case-open").click();
  const detail = card.getByTestId("case-detail");
  await expect(detail.getByTestId("case-signals")).toContainText("Automation tool user agent ua_automation +35");
  await expect(detail.getByTestId("case-history")).toContainText("login from 10.0.0.8");
  // A list can take only the values this case has: its account and its address (no email or device was sent).
  await expect(detail.getByLabel("Also add its").locator("option")).toHaveText([
    "user id (mallory)",
    "IP address (10.0.0.8)",
  ]);
  await snap(page, testInfo, "cases-open");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  // Each of the account's facts keeps its value on one line (a "no" was once broken into "n" and "o").
  const brokenValues = await detail.getByTestId("case-account-facts").evaluate((el) =>
    [...el.querySelectorAll("dd")]
      .filter((dd) => {
        const range = document.createRange();
        range.selectNodeContents(dd);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
      })
      .map((dd) => dd.textContent),
  );
  expect(brokenValues).toEqual([]);
  await snap(page, testInfo, "cases-open-390");

  // The verdict by keyboard: F is fraud, on the case itself (it took focus when it opened).
  await detail.focus();
  await page.keyboard.press("f");
  await expect(page.getByTestId("cases-empty")).toBeVisible();
  await expect(page.getByTestId("cases-summary")).toHaveText("No open cases.");
  await page.getByTestId("cases-resolved").check();
  await expect(page.getByTestId("case-card")).toContainText("fraud");
  // A resolved case's card says who resolved it and when.
  await expect(page.getByTestId("case-resolved-by")).toHaveText(/^Resolved by you \d+ (s|min) ago$/);

  await page.goto("/dashboard");
  await expect(page.getByTestId("overview-cases")).toContainText("No open cases.");

  // Another account from the same address: its case names the earlier one, its verdict and what they share.
  await reviewedLogin(page, "trudy");
  await page.goto("/dashboard/cases");
  await page.getByTestId("case-open").click();
  await expect(page.getByTestId("case-related")).toHaveText(
    /^mallory · review, score \d+, resolved \(fraud\) · opened .+ ago · same IP address$/,
  );
  // Summary first: why the case is here and the verdict come before the details (every signal, the facts), and the
  // verdict's buttons are on the first screen.
  await page.setViewportSize({ width: 1280, height: 900 });
  const trudy = page.getByTestId("case-detail");
  await expect(trudy.getByTestId("case-reasons")).toContainText("Automation tool user agent +35");
  const order = await trudy.evaluate((el) => {
    const all = [...el.querySelectorAll("*")];
    return ["case-summary", "case-fraud", "case-signals", "case-related"].map((id) =>
      all.indexOf(el.querySelector(`[data-testid=${id}]`)!),
    );
  });
  expect(order, "summary, verdict, signals, related cases in this order").toEqual([...order].sort((a, b) => a - b));
  await expect(trudy.getByTestId("case-fraud")).toBeInViewport();
  await snap(page, testInfo, "case-summary-first-1280", { fullPage: false });
  // A related case is a link: it opens that case, on its tab, with who resolved it and when.
  await trudy.getByTestId("case-related-link").click();
  await expect(page).toHaveURL(/status=resolved&case=case_/);
  await expect(page.getByTestId("cases-resolved")).toBeChecked();
  const mallory = page.locator("[data-testid=case-card].selected");
  await expect(mallory).toContainText("mallory");
  await expect(mallory.getByTestId("case-resolution")).toHaveText(
    /^Resolved as fraud by you, \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(\d+ (s|min) ago\)\.$/,
  );
  await expect(mallory.getByTestId("case-fraud")).toHaveCount(0);
  await snap(page, testInfo, "case-related-opened-1280");
});

test("a case's facts say they are as of its assessment, its history marks it and reads to the second, and a verdict says it was saved", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const key = await newWorkspace(page, "CaseFacts", ["suite_starter"]);
  const auth = { authorization: `Bearer ${key}` };
  const CHROME =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
  const login = async (user: string, extra: Record<string, unknown> = {}) => {
    const res = await request.post("/v1/assess", {
      headers: auth,
      data: { event: "login", ip: "8.8.8.8", user_agent: CHROME, user_id: user, ...extra },
    });
    expect(res.status()).toBe(200);
    return (await res.json()) as { decision: string };
  };
  // Before the case: two succeeded logins of mallory and a failed one. Then the case, then two logins after it.
  for (const extra of [{}, {}, { status: "failed" }]) expect((await login("mallory", extra)).decision).toBe("allow");
  await reviewedLogin(page, "mallory");
  for (let i = 0; i < 2; i++) expect((await login("mallory")).decision).toBe("allow");
  // A second account's case, so resolving the first moves on to it.
  await reviewedLogin(page, "trudy");
  await request.post("/v1/lists", { headers: auth, data: { name: "bad_users", kind: "user" } });

  await page.goto("/dashboard/cases");
  const first = page.getByTestId("case-card").filter({ hasText: "mallory" });
  await first.getByTestId("case-open").click();
  const detail = first.getByTestId("case-detail");
  // The facts are the account as it stood when the assessment ran, and say so.
  await expect(detail.getByTestId("case-facts-when")).toHaveText(
    /^The account at the time of this assessment \(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\)$/,
  );
  const facts = detail.getByTestId("case-account-facts");
  await expect(facts).toContainText("Earlier succeeded assessments, last 30 days");
  const earlier = Number(
    (
      await facts
        .locator("dt", { hasText: "Earlier succeeded assessments" })
        .locator("xpath=following-sibling::dd[1]")
        .textContent()
    )?.trim(),
  );
  // The history is up to now: this case's own line marked, the later ones marked as after it, each to the second.
  const lines = detail.getByTestId("case-history-item");
  await expect(lines).toHaveCount(6);
  await expect(detail.getByTestId("case-history-this")).toHaveCount(1);
  expect(await lines.evaluateAll((els) => els.map((e) => e.getAttribute("data-when")))).toEqual([
    "after",
    "after",
    "this",
    "before",
    "before",
    "before",
  ]);
  for (const text of await lines.allTextContents()) expect(text).toMatch(/\d{2}:\d{2}:\d{2} UTC \(\d+ (s|min) ago\)/);
  // The facts agree with the history: the succeeded lines before this case are the earlier assessments counted.
  const before = lines.and(page.locator('[data-when="before"]'));
  expect(await before.filter({ hasNotText: "(failed)" }).count()).toBe(earlier);
  expect(earlier).toBe(2);
  // At 1280 px the facts keep a reader's width: a label is never a page's width away from its value.
  expect(await facts.locator("dl").evaluate((dl) => dl.getBoundingClientRect().width)).toBeLessThanOrEqual(560);
  await snap(page, testInfo, "case-facts-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "case-facts-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  // The verdict, with the account added to a list: a confirmation that stays while the queue moves to the next case.
  await detail.getByTestId("case-list").selectOption({ label: "bad_users" });
  await detail.getByTestId("case-fraud").click();
  const saved = page.getByTestId("case-saved");
  await expect(saved).toHaveText(
    "Case of mallory resolved as fraud; added its user id mallory to the list bad_users. Showing the next case.",
  );
  await expect(page.getByTestId("case-card")).toHaveCount(1);
  await expect(page.getByTestId("case-card").getByTestId("case-detail")).toBeVisible();
  await expect(page.getByTestId("case-card")).toContainText("trudy");
  await expect(saved).toBeVisible();
  await snap(page, testInfo, "case-saved-1280");

  // The list item's note says where it came from in words.
  await page.goto("/dashboard/lists");
  await page.getByTestId("list-card").getByRole("button", { name: "Open" }).click();
  await expect(page.getByTestId("item-row")).toContainText("From case review of mallory: fraud");
  await expect(page.getByTestId("item-row")).not.toContainText("case_");
});

test("a queue longer than a page is reachable to its last case: Load more follows the cursor, and J moves on to the next page", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const key = await newWorkspace(page, "CasePages", ["suite_starter"]);
  // 101 review cases through the API (a scripted login from a private address is decided review), the last one
  // made after the others so it is the newest, last in the queue.
  // Each from an address of its own: a hundred logins from one address would be blocked as a burst.
  const reviewed = async (userId: string, n: number) => {
    const res = await request.post("/v1/assess", {
      headers: { authorization: `Bearer ${key}` },
      data: { event: "login", ip: `10.1.${n}.8`, user_agent: "python-requests/2.31", user_id: userId },
    });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { decision: string }).decision).toBe("review");
  };
  for (let i = 0; i < 100; i += 10)
    await Promise.all(Array.from({ length: 10 }, (_, j) => reviewed(`u_page_${i + j}`, i + j)));
  await reviewed("u_page_last", 100);

  await page.goto("/dashboard/cases");
  await expect(page.getByTestId("cases-summary")).toContainText("101 open cases;");
  const cards = page.getByTestId("case-card");
  await expect(cards).toHaveCount(50);
  await expect(page.getByTestId("cases-shown")).toHaveText("Showing the oldest 50 of 101 open cases.");
  // By keyboard: once the page is in, the focus is on the first case it added, not at the page's top.
  await page.getByRole("button", { name: "Load more" }).press("Enter");
  await expect(cards).toHaveCount(100);
  await expect(cards.nth(50).locator(":focus")).toHaveCount(1);
  await expect(page.getByTestId("cases-shown")).toHaveText("Showing the oldest 100 of 101 open cases.");
  await expect(page.getByText("u_page_last")).toHaveCount(0);

  // J on the last case shown opens the first case of the next page.
  await cards.last().getByTestId("case-open").click();
  await expect(cards.last().getByTestId("case-detail")).toBeVisible();
  await page.keyboard.press("j");
  await expect(cards).toHaveCount(101);
  const last = cards.filter({ hasText: "u_page_last" });
  await expect(last.getByTestId("case-detail")).toBeVisible();
  await expect(page.getByTestId("cases-shown")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  await snap(page, testInfo, "cases-all-pages-1280");
});

test("F and L resolve only the focused case, never from a link or button, and after a verdict the next case has focus with the confirmation in view", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "CaseKeys", ["suite_starter"]);
  await reviewedLogin(page, "mallory");
  await reviewedLogin(page, "trudy");
  await page.goto("/dashboard/cases");
  const first = page.getByTestId("case-card").filter({ hasText: "mallory" });
  await first.getByTestId("case-open").click();
  const detail = first.getByTestId("case-detail");
  // Opening the case gives it focus, so its keys work at once.
  await expect(detail).toBeFocused();
  await expect(detail.getByTestId("case-user-link")).toBeVisible();

  // A letter pressed on a link or a button is that control's, not a verdict.
  await detail.getByTestId("case-user-link").focus();
  await page.keyboard.press("f");
  await detail.getByTestId("case-legitimate").focus();
  await page.keyboard.press("l");
  await page.keyboard.press("f");
  // Nor anywhere else on the page.
  await page.getByRole("heading", { name: "Review queue", level: 1 }).click();
  await page.keyboard.press("f");
  await page.waitForTimeout(500);
  await expect(page.getByTestId("case-saved")).toHaveCount(0);
  await expect(page.getByTestId("cases-summary")).toContainText("2 open cases;");

  // On the case itself, L is legitimate; the queue moves to the next case, which has focus, and the confirmation
  // is on screen above it.
  await detail.focus();
  await page.keyboard.press("l");
  const saved = page.getByTestId("case-saved");
  await expect(saved).toHaveText("Case of mallory resolved as legitimate. Showing the next case.");
  const next = page.getByTestId("case-card").filter({ hasText: "trudy" });
  await expect(next.getByTestId("case-detail")).toBeFocused();
  await expect(saved).toBeInViewport();
  await snap(page, testInfo, "case-next-after-verdict-1280", { fullPage: false });
});

test("a case's lists that could not be read say so with Retry, not an empty choice of lists", async ({
  page,
  request,
}, testInfo) => {
  const key = await newWorkspace(page, "CaseLists", ["suite_starter"]);
  await reviewedLogin(page, "eve");
  await request.post("/v1/lists", {
    headers: { authorization: `Bearer ${key}` },
    data: { name: "bad_users", kind: "user" },
  });
  // The workspace's lists fail (inside tRPC's batch) while the queue itself answers.
  const failLists = failInBatch(["lists.list"], unavailable("The lists could not be loaded; try again shortly."));
  await page.route("**/api/trpc/**", failLists);
  await page.goto("/dashboard/cases");
  const card = page.getByTestId("case-card").filter({ hasText: "eve" });
  await card.getByTestId("case-open").click();
  const detail = card.getByTestId("case-detail");
  await expect(detail.getByTestId("case-lists-error")).toContainText("The workspace's lists could not be read.", {
    timeout: 20_000,
  });
  await expect(detail).not.toContainText("UPSTREAM_UNAVAILABLE");
  await snap(page, testInfo, "case-lists-error-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "case-lists-error-390");
  await page.unroute("**/api/trpc/**", failLists);
  await detail.getByTestId("case-lists-error").getByRole("button", { name: "Retry" }).click();
  await expect(detail.getByTestId("case-lists-error")).toHaveCount(0);
  await expect(detail.getByTestId("case-list").locator("option", { hasText: "bad_users" })).toHaveCount(1);

  // A refusal that reading again cannot lift (the plan has no lists) is said in the service's words with the plan
  // link, and no Retry that could never work.
  const refuseLists = failInBatch(["lists.list"], {
    message: "Lists need the Starter, Business or Agency plan.",
    code: -32003,
    data: { code: "FORBIDDEN", httpStatus: 403, appCode: "CAPABILITY_REQUIRED" },
  });
  await page.route("**/api/trpc/**", refuseLists);
  await page.reload();
  await card.getByTestId("case-open").click();
  const note = detail.getByTestId("error-note");
  await expect(note).toContainText("Lists need the Starter, Business or Agency plan.", { timeout: 20_000 });
  await expect(note.getByRole("link", { name: "See the plans" })).toBeVisible();
  await expect(detail.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(detail).not.toContainText("could not be read");
  await page.unroute("**/api/trpc/**", refuseLists);
});
