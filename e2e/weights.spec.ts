// Signal weights: under the minimum of labelled assessments the page says what is missing and keeps the defaults;
// with enough labels (made through the API) the owner switches to learned weights after an in-page confirmation,
// sees each signal's default and learned weight side by side, an assessment says which weights scored it, and the
// owner goes back to the defaults.
import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

const HEADLESS =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

test("the owner sees default and learned weights and switches once enough assessments are labelled", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const key = await newWorkspace(page, "Weights", ["suite_business"]);
  const auth = { Authorization: `Bearer ${key}` };

  await page.goto("/dashboard/weights");
  await expect(page.getByRole("heading", { name: "Signal weights", level: 1 })).toBeVisible();
  await expect(page.getByTestId("weights-in-use")).toHaveText("Default weights");
  await expect(page.getByTestId("weights-minimum")).toBeVisible();
  // Said once: the API's message ends "The default weights stay in use.", and the page added "Until then the
  // default weights score every assessment." after it.
  await expect(page.getByTestId("weights-minimum")).toHaveText(
    "Learned weights need at least 50 labelled assessments with both fraud and legitimate among them; this workspace has 0 (0 fraud, 0 legitimate). The default weights stay in use.",
  );
  await expect(page.getByTestId("weights-switch")).toHaveCount(0);
  await snap(page, testInfo, "weights-minimum");

  // 60 labelled assessments through the API: automation user agents were fraud, ordinary browsers legitimate.
  for (let i = 0; i < 60; i++) {
    const fraud = i % 2 === 0;
    const res = await page.request.post("/v1/assess", {
      headers: auth,
      data: { event: "signup", ip: `8.8.${i}.${i + 1}`, user_agent: fraud ? HEADLESS : CHROME },
    });
    expect(res.status()).toBe(200);
    const { request_id } = await res.json();
    const label = await page.request.post(`/v1/assess/${request_id}/outcome`, {
      headers: auth,
      data: { outcome: fraud ? "fraud" : "legitimate" },
    });
    expect(label.status()).toBe(200);
  }

  await page.reload();
  await expect(page.getByTestId("weights-labelled")).toHaveText("60");
  await expect(page.getByTestId("weights-minimum")).toHaveCount(0);
  const row = page.locator('[data-testid="weights-row"][data-code="ua_automation"]');
  await expect(row).toBeVisible();
  // Each signal by its plain name, with its code beside it for rules and the API.
  await expect(row.getByRole("rowheader")).toHaveText("Automation tool user agentua_automation");
  await page.getByTestId("weights-switch").click();
  await expect(page.getByTestId("weights-confirm")).toContainText("Fit the weights to your labels");
  await page.getByRole("button", { name: "Yes, switch" }).press("Enter");
  await expect(page.getByTestId("weights-in-use")).toHaveText("Learned weights");
  await expect(page.getByTestId("weights-summary")).toContainText("fitted");
  // The question went with the button pressed in it: the focus is on the switch back (it fell to the page's top).
  await expect(page.getByTestId("weights-switch")).toHaveText("Go back to default weights");
  await expect(page.getByTestId("weights-switch")).toBeFocused();
  await snap(page, testInfo, "weights-learned");

  // An assessment in the dashboard says which weights scored it.
  const scored = await page.request.post("/v1/assess", {
    headers: auth,
    data: { event: "signup", ip: "8.8.4.4", user_agent: HEADLESS },
  });
  expect((await scored.json()).weights).toBe("learned");

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "weights-390", { fullPage: false });

  await page.getByTestId("weights-switch").click();
  await page.getByRole("button", { name: "Yes, switch" }).click();
  await expect(page.getByTestId("weights-in-use")).toHaveText("Default weights");
});
