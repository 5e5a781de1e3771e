// When the dashboard's own calls never reach the service (offline, a proxy's error page, an answer that is not the
// service's), pages say so in words and offer Retry, instead of the browser's exception text: each part that reads
// data says "<what> could not be read. Could not reach the service. ..." (ReadFailed, the one pattern of a failed
// read; e2e/read-failed.spec.ts walks every page with it).
import { expect, test, type Page } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { failInBatch, snap, unavailable } from "./helpers";

const UNREACHABLE = "Could not reach the service. Check your connection and try again.";
const RAW = /Failed to fetch|not valid JSON|Unexpected token|Unable to transform/;

/** Fails every dashboard call the way `how` says until the returned function is called. */
async function breakTheLink(page: Page, how: "offline" | "proxy-html" | "foreign-json"): Promise<() => Promise<void>> {
  const handler = (route: Parameters<Parameters<Page["route"]>[1]>[0]) =>
    how === "offline"
      ? route.abort("connectionrefused")
      : how === "proxy-html"
        ? route.fulfill({ status: 502, contentType: "text/html", body: "<html><body>502 Bad Gateway</body></html>" })
        : route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ oops: true }) });
  await page.route("**/api/trpc/**", handler);
  return () => page.unroute("**/api/trpc/**", handler);
}

test("a call that never reaches the service is said in words with Retry, on the review queue, lists and API keys", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Unreachable", ["suite_starter"]);

  for (const [path, how] of [
    ["/dashboard/cases", "offline"],
    ["/dashboard/lists", "proxy-html"],
    ["/dashboard/keys", "foreign-json"],
  ] as const) {
    const restore = await breakTheLink(page, how);
    await page.goto(path);
    const notes = page.locator("main [data-read-failed]");
    await expect(notes.first()).toContainText(UNREACHABLE);
    for (const note of await notes.all()) await expect(note).toContainText(`could not be read. ${UNREACHABLE}`);
    await expect(page.locator("main")).not.toContainText(RAW);
    await snap(page, testInfo, `unreachable-${how}-1280`);
    await restore();
    // One Retry reads the part again, and the page's other parts that failed with it.
    await notes.first().getByRole("button", { name: "Retry" }).click();
    await expect(notes).toHaveCount(0);
    await expect(page.getByTestId("error-note")).toHaveCount(0);
  }
  // The keys page, once the service answers, lists the workspace's first key.
  await expect(page.getByTestId("key-row")).toHaveCount(1);

  await page.setViewportSize({ width: 390, height: 844 });
  const restore = await breakTheLink(page, "offline");
  await page.goto("/dashboard/cases");
  await expect(page.locator("main [data-read-failed]")).toHaveText(
    `The review queue could not be read. ${UNREACHABLE} Retry`,
  );
  await snap(page, testInfo, "unreachable-offline-390");
  await restore();
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("cases-empty")).toBeVisible();
  await expect(page.locator("main [data-read-failed]")).toHaveCount(0);
});

test("a list the service failed to read (503) says what could not be read, with Retry, on API keys, senders and data sources", async ({
  page,
}, testInfo) => {
  // The service answered, but failed this one read: the pages showed its message alone, with no Retry, and the keys
  // page counted "(0 held)" keys it had not read.
  await newWorkspace(page, "ReadFailed", ["suite_starter", "email"]);
  const cases: [string, string, string, string, RegExp][] = [
    ["account.keys", "/dashboard/keys", "keys-read-error", "The keys could not be read.", /\(0 held\)/],
    ["senders.list", "/dashboard/senders", "senders-read-error", "The senders could not be read.", /No senders yet/],
    [
      "sources.list",
      "/dashboard/sources",
      "sources-read-error",
      "The data sources could not be read.",
      /All 0 sources/,
    ],
  ];
  for (const [procedure, path, testId, words, wrong] of cases) {
    const fail = failInBatch([procedure], unavailable("The database did not answer in time."));
    await page.route("**/api/trpc/**", fail);
    await page.goto(path);
    const note = page.getByTestId(testId);
    await expect(note).toHaveText(`${words} Retry`, { timeout: 20_000 });
    await expect(page.locator("main")).not.toContainText(wrong);
    await snap(page, testInfo, `${testId}-1280`);
    await page.unroute("**/api/trpc/**", fail);
    await note.getByRole("button", { name: "Retry" }).click();
    await expect(note).toHaveCount(0);
  }
  await expect(page.getByTestId("source-row").first()).toBeVisible();
});
