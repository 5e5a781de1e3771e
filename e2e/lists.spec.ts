// The lists page end to end: the Free gate, an empty workspace, a list created, items pasted (one expired), a
// search, the page at 390 px without sideways scrolling, and a delete with its confirmation.
import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

test("a fraud analyst creates a list, pastes items, searches them, and deletes the list", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Lists", ["suite_business"]);
  await page.goto("/dashboard/lists");
  await expect(page.getByTestId("lists-empty")).toBeVisible();

  await page.getByTestId("list-name").fill("blocked_emails");
  await page.getByTestId("list-kind").selectOption("email");
  await page.getByRole("button", { name: "Create list" }).click();
  await expect(page.getByTestId("list-card")).toHaveCount(1);
  await expect(page.getByTestId("list-used-by")).toHaveText("Not used by any rule yet.");

  await page.getByTestId("items-text").fill("not an email");
  await page.getByRole("button", { name: "Add items" }).click();
  await expect(page.getByText("CSV line 1")).toBeVisible();

  await page
    .getByTestId("items-text")
    .fill("Fraud@Example.com,,chargeback\nold@example.com,2020-01-01T00:00:00Z,expired one\nthird@example.net");
  await page.getByRole("button", { name: "Add items" }).click();
  await expect(page.getByTestId("item-row")).toHaveCount(3);
  await expect(page.getByText("fraud@example.com")).toBeVisible();
  await expect(page.getByText(/^Expired /)).toBeVisible();
  await expect(page.getByTestId("list-card")).toContainText("3 items");
  await snap(page, testInfo, "lists-1280");

  await page.getByTestId("items-search").fill("chargeback");
  await expect(page.getByTestId("item-row")).toHaveCount(1);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("items-search").fill("");
  await expect(page.getByTestId("item-row")).toHaveCount(3);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Every control ends inside its card (the file picker once stuck out past the card's edge without making the
  // page scroll).
  const card = page.getByTestId("list-card");
  const sticking = await card.evaluate((el) => {
    const edge = el.getBoundingClientRect().right;
    return [...el.querySelectorAll("input, textarea, select, button")]
      .filter((c) => c.getBoundingClientRect().right > edge + 0.5)
      .map((c) => `${c.tagName.toLowerCase()}[${c.getAttribute("type") ?? ""}]`);
  });
  expect(sticking).toEqual([]);
  await snap(page, testInfo, "lists-390");

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByText("Delete “blocked_emails” and its 3 items?")).toBeVisible();
  await page.getByTestId("confirm-delete").click();
  await expect(page.getByTestId("lists-empty")).toBeVisible();
});

test("a Free workspace sees which plans include lists", async ({ page }) => {
  await newWorkspace(page, "ListsFree", []);
  await page.goto("/dashboard/lists");
  await expect(page.getByTestId("plan-gate")).toContainText("Lists need the");
});
