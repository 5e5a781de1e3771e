// The dashboard's navigation at a phone's width: the links hide behind a "Menu" button, so the first screen is the
// page; the button says whether the menu is open, Escape closes it and gives focus back, and following a link closes
// it. At 1280 px the side column is always shown and the button is not.
import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

test("at 390 px the navigation is a menu button that opens, closes with Escape and closes after a link; at 1280 px it is a side column", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Navigation", ["suite_starter"]);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  const menu = nav.getByRole("button", { name: "Menu" });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard/cases");
  await expect(menu).toBeHidden();
  await expect(nav.getByRole("link", { name: "Monitors" })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav.getByRole("link", { name: "Monitors" })).toBeHidden();
  await expect(nav).toContainText("Review queue");
  // The page's heading is on the first screen, not pushed below a list of links.
  await expect(page.getByRole("heading", { name: "Review queue", level: 1 })).toBeInViewport();
  const navHeight = await nav.evaluate((el) => el.getBoundingClientRect().height);
  expect(navHeight, "the closed menu's height").toBeLessThan(80);
  await snap(page, testInfo, "nav-closed-390", { fullPage: false });

  // By keyboard: Enter opens it, Tab reaches its first link, Escape closes it with focus back on the button.
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Monitors" })).toBeVisible();
  await snap(page, testInfo, "nav-open-390", { fullPage: false });
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Overview" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  await expect(nav.getByRole("link", { name: "Monitors" })).toBeHidden();

  // A link followed closes the menu on the new page, which it names.
  await menu.click();
  await nav.getByRole("link", { name: "Monitors" }).click();
  await page.waitForURL(/\/dashboard\/monitors$/);
  await expect(page.getByRole("heading", { name: "Monitors", level: 1 })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav).toContainText("Monitors");
});
