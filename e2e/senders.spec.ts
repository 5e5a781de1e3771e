// The senders page in a real browser: a Free workspace is told which plans have slots; with the Email plan the
// owner adds a domain, copies the TXT record, verifies once it is published (the e2e server's fake DNS), sees the
// posture in words, and removes it. Loading and error states, 390 px without horizontal scroll.
import { expect, test, type Page } from "@playwright/test";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { publishDnsRecords } from "./dns-records";
import { newWorkspace } from "./dashboard-steps";
import { failInBatch, grantPlans, snap, unavailable } from "./helpers";

const TXT = (text: string) => ({ type: "TXT", data: text.match(/.{1,255}/g) ?? [""] });

async function noHorizontalScroll(page: Page): Promise<void> {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll).toBeLessThanOrEqual(client);
}

test("an owner adds a sender, publishes the TXT record, verifies it and reads its posture in words", async ({
  page,
}, testInfo) => {
  const domain = `mail-${randomBytes(3).toString("hex")}.com`;
  await newWorkspace(page, "Mail team", []);

  await page.goto("/dashboard/senders");
  await expect(page.getByRole("link", { name: "Senders" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("no-slots")).toContainText(
    "This workspace's plan has no sender slots. They come with the Paid Email subscription, Suite Starter",
  );
  await expect(page.getByTestId("no-slots").getByTestId("gate-workspace-id")).toHaveText(/^ws_/);
  await expect(page.getByRole("button", { name: "Add sender" })).toHaveCount(0);
  await snap(page, testInfo, "senders-free");

  await grantPlans(page, ["email"]); // the operator's grant
  await page.goto("/dashboard/senders");
  await expect(page.getByTestId("slot-usage")).toHaveText("0 of 3 sender slots in use.");
  await expect(page.getByTestId("senders-empty")).toContainText("No senders yet.");
  await snap(page, testInfo, "senders-empty");

  // A refused domain is said of the Domain field, not of the API's "domain:".
  await page.getByRole("textbox", { name: "Domain", exact: true }).fill("not a domain");
  await page.getByRole("button", { name: "Add sender" }).click();
  await expect(page.getByTestId("add-sender-error")).toHaveText(
    "Domain: A domain name has no spaces, slashes, ports, @ or brackets.",
  );

  await page.getByRole("textbox", { name: "Domain", exact: true }).fill(domain);
  await page.getByLabel("DKIM selectors (optional)").fill("s1");
  await page.getByRole("button", { name: "Add sender" }).click();
  const card = page.locator(`[data-testid=sender-card][data-sender="${domain}"]`);
  await expect(card.getByTestId("record-name")).toHaveText(`_service-verification.${domain}`);
  const value = (await card.getByTestId("record-value").textContent())?.trim() ?? "";
  expect(value).toMatch(/^service-verification=[A-Za-z0-9_-]+$/);
  await expect(card.getByRole("button", { name: "Copy value" })).toBeVisible();
  await expect(page.getByTestId("slot-usage")).toHaveText("1 of 3 sender slots in use.");

  // Verifying before the record exists says what to do, in words.
  await card.getByRole("button", { name: "Verify" }).click();
  await expect(card.getByTestId("sender-error")).toContainText(
    `No TXT record "${value}" at _service-verification.${domain} yet.`,
  );
  await expect(card.getByTestId("sender-error")).not.toContainText("CONFLICT");
  await snap(page, testInfo, "senders-record");

  const spki = generateKeyPairSync("rsa", { modulusLength: 2048 })
    .publicKey.export({ type: "spki", format: "der" })
    .toString("base64");
  publishDnsRecords({
    [`_service-verification.${domain}`]: [TXT(value)],
    [domain]: [TXT("v=spf1 ip4:192.0.2.0/24 -all")],
    [`_dmarc.${domain}`]: [TXT(`v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`)],
    [`s1._domainkey.${domain}`]: [TXT(`v=DKIM1; k=rsa; p=${spki}`)],
  });
  await card.getByRole("button", { name: "Verify" }).press("Enter");
  await expect(card.getByTestId("posture-overall")).toHaveText("Healthy");
  // Verify went with the pending state: the focus is on the sender's heading, its verified card read from the top
  // (it fell to the page's top).
  await expect(card.getByRole("heading", { level: 3 })).toBeFocused();
  await expect(card.getByTestId("posture-spf")).toHaveText("SPF in place");
  await expect(card.getByTestId("posture-dkim")).toHaveText("DKIM in place");
  await expect(card.getByTestId("posture-dmarc")).toHaveText("DMARC enforced (reject)");
  await expect(card.getByTestId("posture-blocklists")).toHaveText("Not on blocklists");
  await expect(card.getByTestId("verification-record")).toHaveCount(0);
  await expect(card).toContainText("checked daily");
  await snap(page, testInfo, "senders-verified");

  await page.setViewportSize({ width: 390, height: 844 });
  await noHorizontalScroll(page);
  await card.getByRole("button", { name: "Remove" }).focus();
  await page.keyboard.press("Shift+Tab");
  await snap(page, testInfo, "senders-390");

  // The question takes focus on Cancel; Escape closes it and gives focus back to Remove.
  await card.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(card.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(card.getByRole("alertdialog")).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Remove", exact: true })).toBeFocused();
  await card.getByRole("button", { name: "Remove", exact: true }).click();
  await card.getByRole("button", { name: "Yes, remove" }).click();
  await expect(card).toHaveCount(0);
  // The card went with the button pressed in it: the line that says so has the focus.
  await expect(page.getByTestId("done-notice")).toHaveText(`Removed ${domain}.`);
  await expect(page.getByTestId("done-notice")).toBeFocused();
  await expect(page.getByTestId("senders-empty")).toBeVisible();
});

test("the senders page shows its loading state, then a failure in words with Retry", async ({ page }, testInfo) => {
  await newWorkspace(page, "States", []);
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  // Hold the list call, then answer it (inside tRPC's batch) with a failure.
  await page.route(
    "**/api/trpc/**",
    failInBatch(["senders.list"], unavailable("The senders could not be loaded; try again shortly."), () => held),
  );
  await page.goto("/dashboard/senders");
  await expect(page.getByTestId("senders-loading")).toHaveText("Loading senders…");
  await snap(page, testInfo, "senders-loading");
  release();
  // A failure that reading again may lift says what could not be read, with Retry (ReadFailed, as the other lists).
  await expect(page.getByTestId("senders-read-error")).toHaveText("The senders could not be read. Retry", {
    timeout: 20_000,
  });
  await expect(page.locator("main")).not.toContainText("UPSTREAM_UNAVAILABLE");
  await snap(page, testInfo, "senders-error");
});
