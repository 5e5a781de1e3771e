// Lookup history: lookups made with the workspace's key are listed with when they expire, filtered by kind of
// lookup; a Free workspace is told why it has none.
import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

test("lookups made with the API key are listed, filtered by kind, with their expiry", async ({ page }, testInfo) => {
  const key = await newWorkspace(page, "History", ["suite_starter"]);
  // Before any lookup, the default period (the last 30 days) is no filter the user set: it says there are none yet.
  await page.goto("/dashboard/history");
  await expect(page.getByTestId("history-empty")).toHaveText(
    "No lookups in this period. Lookups made with an API key or in the console appear here.",
  );
  for (const path of ["/v1/ip/8.8.8.8/geo", "/v1/ip/1.1.1.1", "/v1/asn/15169"]) {
    expect((await page.request.get(path, { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);
  }
  // A target with no place to break (a long address; device ids are the same), which must wrap in its row at 390 px.
  const longUrl = "https://averylongsubdomainnamewithoutanybreaks.history.example.test/";
  const online = await page.request.post("/v1/online-check", {
    headers: { Authorization: `Bearer ${key}` },
    data: { url: longUrl },
  });
  expect(online.status(), await online.text()).toBe(200);
  await page.goto("/dashboard/history");
  await expect(page.getByRole("heading", { name: "Lookup history", level: 1 })).toBeVisible();
  await expect(page.getByText("(30 days)")).toBeVisible();
  await expect(page.getByTestId("history-row")).toHaveCount(4);
  await expect(page.getByTestId("history-list")).toContainText("Expires");
  // Each lookup by the endpoint's name in words, as on the overview and analytics (not "asn.lookup").
  await expect(page.getByTestId("history-row").filter({ hasText: "AS15169" })).toContainText("AS number lookup");
  await expect(page.getByTestId("history-row").filter({ hasText: "8.8.8.8" })).toContainText("IP geolocation");
  await expect(page.getByTestId("history-list")).not.toContainText("asn.lookup");
  await snap(page, testInfo, "history-1280");

  await page.getByTestId("history-endpoint").selectOption("ip");
  await expect(page.getByTestId("history-row")).toHaveCount(2);
  await page.getByTestId("history-endpoint").selectOption("asn");
  await expect(page.getByTestId("history-row")).toHaveCount(1);
  await expect(page.getByTestId("history-row")).toContainText("AS15169");
  await page.getByTestId("history-endpoint").selectOption("dns");
  await expect(page.getByTestId("history-empty")).toHaveText("No lookup matches this filter.");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("history-endpoint").selectOption("");
  await expect(page.getByTestId("history-row")).toHaveCount(4);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  // Every part of every row is inside the list (before, the long target pushed the row's time and summary past the
  // card's edge, where they were cut off).
  const outside = await page.getByTestId("history-list").evaluate((list) => {
    const right = list.getBoundingClientRect().right;
    return [...list.querySelectorAll("li *")]
      .filter((el) => el.getBoundingClientRect().right > right + 1)
      .map((el) => `${el.className}: ${(el.textContent ?? "").slice(0, 40)}`);
  });
  expect(outside, "parts of a row past the list's edge at 390 px").toEqual([]);
  await snap(page, testInfo, "history-390");
});

test("a Free workspace is told which plans keep history", async ({ page }, testInfo) => {
  await newWorkspace(page, "History free", []);
  await page.goto("/dashboard/history");
  await expect(page.getByTestId("history-none")).toContainText("Free workspaces keep no lookup history");
  // The shared plan gate: the workspace id to give the operator, copyable.
  await expect(page.getByTestId("history-none").getByTestId("gate-workspace-id")).toHaveText(/^ws_/);
  await snap(page, testInfo, "history-free");
});
