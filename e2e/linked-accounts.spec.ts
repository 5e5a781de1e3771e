// Issue 45, item 6: a ring of accounts on one device, assessed from the dashboard's console (one with a declined
// card payment), opens a case whose view names the other accounts and what links them; the account's page shows its
// canonical email, phone, identifiers, linked accounts and payment history. Wide and at 390 px.
import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./axe";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

/** A scripted signup (automation user agent: a review or challenge case) on the shared device. */
async function assessOnRing(page: Page, userId: string, extra: (page: Page) => Promise<void> = async () => {}) {
  await page.goto("/dashboard/assess");
  await page.getByLabel("Event").selectOption(userId === "cat" ? "checkout" : "signup");
  await page.getByLabel("IP address (required)").fill("10.0.0.8");
  await page.getByLabel("User-Agent").fill("python-requests/2.31");
  await page.getByLabel("User id").fill(userId);
  await page.getByLabel("Device id").fill("dev-ring");
  await extra(page);
  await page.getByTestId("run-assessment").click();
  await expect(page.getByTestId("assessment-answer").getByTestId("decision")).toBeVisible();
}

test("a case with linked accounts names them and what links them, and the account page shows its identifiers and payments", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Linked accounts", ["suite_starter"]);
  await assessOnRing(page, "ann", async (p) => {
    await p.getByLabel("Email").fill("Ann.Smith+shop@googlemail.com");
    await p.getByLabel("Phone").fill("+44 7400 123456");
  });
  await assessOnRing(page, "ben", async (p) => p.getByLabel("Phone").fill("+447400123456"));
  await assessOnRing(page, "cat", async (p) => {
    await p.getByLabel("Email").fill("annsmith@gmail.com");
    const pay = p.getByTestId("assess-payment");
    await pay.getByLabel("Card BIN").fill("411111");
    await pay.getByLabel("Card last four").fill("1111");
    await pay.getByLabel("Card fingerprint").fill("fp_cat_card");
    await pay.getByLabel("Payment amount").fill("4999");
    await pay.getByLabel("Payment currency").fill("EUR");
    await pay.getByLabel("Payment status").selectOption("declined");
    await pay.getByLabel("Decline code").fill("do_not_honor");
  });
  await expect(page.getByTestId("assessment-answer")).toContainText(
    "2 other accounts used this device this month: ben, ann; 1 other account",
  );

  // The review queue: cat's case names ann and ben, each with what it shares.
  await page.goto("/dashboard/cases");
  const card = page.getByTestId("case-card").filter({ hasText: "cat" });
  await card.getByTestId("case-open").click();
  const linked = card.getByTestId("case-linked");
  await expect(linked.getByTestId("linked-account")).toHaveText([
    /^ben · same device dev-ring · last /,
    /^ann · same device dev-ring and mailbox annsmith@gmail\.com · last /,
  ]);
  await expect(card.getByTestId("case-history")).toContainText("Visa 411111…1111, 49.99 EUR, declined (do not honor)");
  await snap(page, testInfo, "case-linked-accounts");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "case-linked-accounts-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  // The account's page, from the case.
  await linked.getByTestId("case-user-link").click();
  const view = page.getByTestId("user-view");
  await expect(view.getByRole("heading", { name: "Account cat", level: 1 })).toBeVisible();
  await expect(view.getByTestId("identifier-email")).toContainText("annsmith@gmail.com");
  await expect(view.getByTestId("identifier-card")).toContainText("fp_cat_card");
  await expect(view.getByTestId("linked-account")).toHaveCount(2);
  await expect(view.getByTestId("user-payments")).toHaveText(/Visa 411111…1111, 49\.99 EUR, declined \(do not honor\)/);
  // Its usual behaviour says what it is counted from: the succeeded assessments (failed ones on their own line).
  await expect(view.getByTestId("baseline-basis")).toHaveText(
    "From its succeeded assessments of the last 90 days; failed logins and signups are counted only on their own line.",
  );
  // Opened by a link, the account's heading has the focus; a reload of the page leaves it at the document's start,
  // as the browser puts it.
  const accountHeading = view.getByRole("heading", { name: "Account cat", level: 1 });
  await expect(accountHeading).toBeFocused();
  await page.reload();
  await expect(view.getByTestId("identifier-card")).toContainText("fp_cat_card");
  await expect(accountHeading).not.toBeFocused();
  await expect(page.locator("body")).toBeFocused();
  await snap(page, testInfo, "user-page");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "user-page-390");

  // ann's page, by keyboard from the linked list: her phone as the numbering plan reads it.
  await view.getByRole("link", { name: "ann" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Account ann", level: 1 })).toBeVisible();
  await expect(page.getByTestId("identifier-phone")).toContainText("+447400123456 · mobile");
  await expect(page.getByTestId("linked-account").filter({ hasText: "ben" })).toContainText(
    "same device dev-ring and phone number +447400123456",
  );

  // An account the workspace never assessed: said in words, with the search to try another.
  await page.goto("/dashboard/users/nobody");
  await expect(page.getByTestId("user-empty")).toContainText("This workspace has no assessment of the user id nobody");
  await expect(await seriousViolations(page)).toEqual([]);
  // A long user id with no break in it (an identity provider's subject, a hash) wraps at 390 px, heading and trail.
  const longId = `auth0|${"5f2b8c3e9a".repeat(6)}`;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/users/${encodeURIComponent(longId)}`);
  await expect(page.getByRole("heading", { name: `Account ${longId}`, level: 1 })).toBeVisible();
  // Once the answer is in: the not-found card names the id too.
  await expect(page.getByTestId("user-empty")).toContainText(longId);
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  // The accounts page: a search by user id, by keyboard.
  await page.goto("/dashboard/users");
  // Not a bare search box: it says how accounts appear and what to search by.
  await expect(page.getByTestId("users-empty")).toContainText("An account appears once an assessment names it");
  await expect(page.getByTestId("users-empty")).toContainText("Search by that user id, exactly as it was sent");
  await expect(await seriousViolations(page)).toEqual([]);
  // Open with an empty field says what to enter, and stays.
  await page.getByRole("button", { name: "Open" }).click();
  await expect(page.getByTestId("user-search-problem")).toHaveText(
    "Enter the user id to open (or the email address of an account assessed without one).",
  );
  // The field is marked, described by the problem and has the focus, not the button.
  await expect(page.getByTestId("user-search")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("user-search")).toHaveAccessibleDescription(/Enter the user id to open/);
  await expect(page.getByTestId("user-search")).toBeFocused();
  await expect(page).toHaveURL(/\/dashboard\/users$/);
  await page.getByTestId("user-search").fill("ben");
  await expect(page.getByTestId("user-search-problem")).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Account ben", level: 1 })).toBeVisible();
  await expect(await seriousViolations(page)).toEqual([]);
});

test("a case's account facts keep a long canonical email as sent, wrapped beside readable labels at 390 px", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Long mailbox", ["suite_starter"]);
  const mailbox = "first_last_2024_newsletter_signups_and_receipts_archive@outlook.com";
  await page.goto("/dashboard/assess");
  await page.getByLabel("Event").selectOption("signup");
  await page.getByLabel("IP address (required)").fill("10.0.0.8");
  await page.getByLabel("User-Agent").fill("python-requests/2.31");
  await page.getByLabel("User id").fill("long-mailbox");
  await page.getByLabel("Email").fill(mailbox);
  await page.getByTestId("run-assessment").click();
  await expect(page.getByTestId("assessment-answer").getByTestId("decision")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/cases");
  const card = page.getByTestId("case-card").filter({ hasText: "long-mailbox" });
  await card.getByTestId("case-open").click();
  const facts = card.getByTestId("case-account-facts");
  const email = facts.locator(".fact").filter({ hasText: "Canonical email" }).locator("dd");
  await expect(email).toHaveText(mailbox);
  // Every label keeps a width a word fits in (not one letter a line beside the long value).
  const narrowest = await facts.locator("dt").evaluateAll((dts) => Math.min(...dts.map((d) => d.clientWidth)));
  expect(narrowest).toBeGreaterThan(100);
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "case-long-mailbox-390");
});

test("the console's refusal of a card number reads as words with `bin` as code, and an id no account can have is said so", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Card refusal", ["suite_starter"]);
  await page.goto("/dashboard/assess");
  await page.getByLabel("Event").selectOption("checkout");
  await page.getByLabel("IP address (required)").fill("10.0.0.8");
  const pay = page.getByTestId("assess-payment");
  await pay.getByLabel("Card BIN").fill("4111111111111111");
  await pay.getByLabel("Card last four").fill("1111");
  await pay.getByLabel("Payment amount").fill("4999");
  await pay.getByLabel("Payment currency").fill("EUR");
  await page.getByTestId("run-assessment").click();
  // The form's own check stops a full card number in Card BIN before anything is sent (0fb3b74).
  await expect(
    page.getByRole("alert").filter({ hasText: "Card BIN holds more digits than a BIN, like a full card number" }),
  ).toBeVisible();
  // In a field the form does not read for digits, the API refuses it: its refusal in words.
  await pay.getByLabel("Card BIN").fill("411111");
  await pay.getByLabel("Card fingerprint").fill("4111111111111111");
  await page.getByTestId("run-assessment").click();
  const note = page.getByTestId("error-note");
  // Named as the form names the part (d9b0f01), not by the API's field.
  await expect(note).toContainText(
    "The card attempt holds what looks like a full card number: send only the card's BIN",
  );
  await expect(note).not.toContainText("payment: payment");
  await expect(note).not.toContainText("`");
  await expect(note.locator("code")).toHaveText(["bin", "last4"]);
  await snap(page, testInfo, "assess-card-refused");

  await page.goto("/dashboard/users/%20");
  await expect(page.getByTestId("user-empty")).toContainText("No account can have this user id");
  await expect(page.getByTestId("user-view")).not.toContainText("Too small");
  await expect(page.getByTestId("user-view").getByRole("textbox")).toBeVisible();
});

test("an account assessed without a user id opens from the Accounts search by any spelling of its email, as the page says", async ({
  page,
}) => {
  await newWorkspace(page, "Mailbox account", ["suite_starter"]);
  await page.goto("/dashboard/assess");
  await page.getByLabel("IP address (required)").fill("10.0.0.8");
  await page.getByTestId("assess-form").getByLabel("Email").fill("Zoe.Smith+shop@googlemail.com");
  await page.getByTestId("run-assessment").click();
  await expect(page.getByTestId("assessment-answer").getByTestId("decision")).toBeVisible();

  await page.goto("/dashboard/users");
  const how = page.getByTestId("users-empty");
  // The page said an email address finds no account; GET /users/{user_id} opens such an account by its address.
  await expect(how).toContainText("An account assessed without a user id is known by its email address");
  await expect(how).not.toContainText("an email address, IP address or device id does not find");
  await page.getByTestId("user-search").fill("zoesmith@gmail.com");
  await page.keyboard.press("Enter");
  const heading = page.getByRole("heading", { name: "Account zoesmith@gmail.com", level: 1 });
  await expect(heading).toBeVisible();
  // The search is gone with its page: the keyboard's focus is on the account's heading, not the page's top.
  await expect(heading).toBeFocused();
  await expect(page.getByTestId("identifier-email")).toContainText("zoesmith@gmail.com");

  // An address no account has: said in words, without the API's names (`/assess`, `user_id`).
  await page.goto(`/dashboard/users/${encodeURIComponent("nobody@example.com")}`);
  const empty = page.getByTestId("user-empty");
  await expect(empty).toContainText(
    "This workspace has no assessment of the user id nobody@example.com, nor of an account known by that email address",
  );
  await expect(empty).not.toContainText("user_id");
  await expect(empty).not.toContainText("/assess");
});

test("the console's answer shows the phone, the card attempt, the mailbox and the linked accounts in words", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Answer identity", ["suite_starter"]);
  const form = page.getByTestId("assess-form");
  await page.goto("/dashboard/assess");
  await form.getByLabel("IP address (required)").fill("10.0.0.8");
  await form.getByLabel("User id").fill("first");
  await form.getByLabel("Device id").fill("dev-answer");
  await page.getByTestId("run-assessment").click();
  await expect(page.getByTestId("assessment-answer").getByTestId("decision")).toBeVisible();

  await page.goto("/dashboard/assess");
  await form.getByLabel("Event").selectOption("checkout");
  await form.getByLabel("IP address (required)").fill("10.0.0.8");
  await form.getByLabel("User id").fill("second");
  await form.getByLabel("Device id").fill("dev-answer");
  await form.getByLabel("Email").fill("Zed.Jones+shop@googlemail.com");
  await form.getByLabel("Phone").fill("+44 7400 123456");
  const pay = page.getByTestId("assess-payment");
  await pay.getByLabel("Card BIN").fill("411111");
  await pay.getByLabel("Card last four").fill("1111");
  await pay.getByLabel("Payment amount").fill("4999");
  await pay.getByLabel("Payment currency").fill("EUR");
  await pay.getByLabel("Payment status").selectOption("declined");
  await pay.getByLabel("Decline code").fill("insufficient_funds");
  await page.getByTestId("run-assessment").click();
  const answer = page.getByTestId("assessment-answer");
  await expect(answer.getByTestId("decision")).toBeVisible();
  // Outside "Details": what the numbering plan, the card and the workspace's accounts say, without API tokens.
  await expect(answer.getByTestId("email-mailbox")).toContainText("zedjones@gmail.com");
  await expect(answer.getByTestId("phone-facts")).toContainText("+44 7400 123456 · mobile · United Kingdom");
  await expect(answer.getByTestId("phone-facts")).toContainText("+447400123456");
  await expect(answer.getByTestId("payment-facts")).toContainText(
    "Visa 411111…1111, 49.99 EUR, declined (insufficient funds)",
  );
  // What the card's first digits could not tell, in a user's words: not the API's note to the operator ("no BIN
  // table is shipped").
  await expect(answer.getByTestId("payment-facts")).toContainText(
    "Visa, known from the card's first digits. The issuing bank's country and whether the card is credit, debit or prepaid are unknown.",
  );
  await expect(answer.getByTestId("payment-facts")).not.toContainText(/BIN table|shipped/);
  await expect(answer.getByTestId("answer-details")).toContainText("whether the card is credit, debit or prepaid");
  await expect(answer.getByTestId("answer-details")).not.toContainText("BIN table");
  // Each of the three cards holds its text at 1280 px, where they stand side by side: the phone number's
  // international form ran out of its card beside the long label "Same country as the IP address".
  for (const part of ["phone-facts", "payment-facts", "linked-facts"]) {
    const overflow = await answer.getByTestId(part).evaluate((card) => {
      const box = card.getBoundingClientRect();
      const out: string[] = [];
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(n);
        if (range.getBoundingClientRect().right > box.right + 0.5) out.push(n.textContent ?? "");
      }
      return out;
    });
    expect(overflow, `text running out of ${part}`).toEqual([]);
  }
  await answer.getByTestId("payment-facts").scrollIntoViewIfNeeded();
  await snap(page, testInfo, "answer-payment-1280", { fullPage: false });
  await expect(answer.getByTestId("linked-facts")).toContainText("1 other account in the last 30 days.");
  await expect(answer.getByTestId("linked-facts")).toContainText("Same device: first");
  for (const part of ["phone-facts", "payment-facts", "linked-facts"])
    await expect(answer.getByTestId(part)).not.toContainText("_");
  await expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "answer-identity-390");
});

test("an account known by its email address opens from a linked-accounts list and from its case", async ({ page }) => {
  await newWorkspace(page, "Mailbox links", ["suite_starter"]);
  const form = page.getByTestId("assess-form");
  // An email-only signup (its account is its mailbox), then a user id on the same device: linked.
  for (const fill of [
    async () => form.getByLabel("Email").fill("Ann.Lee+promo@gmail.com"),
    async () => form.getByLabel("User id").fill("kim"),
  ]) {
    await page.goto("/dashboard/assess");
    await form.getByLabel("IP address (required)").fill("10.0.0.8");
    await form.getByLabel("User-Agent").fill("python-requests/2.31");
    await form.getByLabel("Device id").fill("dev-mailbox");
    await fill();
    await page.getByTestId("run-assessment").click();
    await expect(page.getByTestId("assessment-answer").getByTestId("decision")).toBeVisible();
  }

  // kim's page names the mailbox's account as a link, like a user id's, and it opens (GET /users by email).
  await page.goto("/dashboard/users/kim");
  const linked = page.getByTestId("linked-account").filter({ hasText: "annlee@gmail.com" });
  await expect(linked).toContainText("same device dev-mailbox");
  await linked.getByRole("link", { name: "annlee@gmail.com" }).click();
  await expect(page.getByRole("heading", { name: "Account annlee@gmail.com", level: 1 })).toBeVisible();
  await expect(page.getByTestId("identifier-email")).toContainText("annlee@gmail.com");

  // The email-only assessment's case opens its account too, by the address it was sent with.
  await page.goto("/dashboard/cases");
  const card = page.getByTestId("case-card").filter({ hasText: "ann.lee+promo@gmail.com" });
  await card.getByTestId("case-open").click();
  await card.getByTestId("case-user-link").click();
  await expect(page.getByRole("heading", { name: "Account ann.lee+promo@gmail.com", level: 1 })).toBeVisible();
  await expect(page.getByTestId("identifier-email")).toContainText("annlee@gmail.com");
});

test("the console reads a national phone number in the country given beside it", async ({ page }) => {
  await newWorkspace(page, "Phone country", ["suite_starter"]);
  const form = page.getByTestId("assess-form");
  await page.goto("/dashboard/assess");
  // A private address has no country: without one given, a national number is read in no plan.
  await form.getByLabel("IP address (required)").fill("10.0.0.8");
  await form.getByLabel("Phone").fill("07400 123456");
  await form.getByLabel("Number's country").fill("gb");
  await page.getByTestId("run-assessment").click();
  const phone = page.getByTestId("assessment-answer").getByTestId("phone-facts");
  await expect(phone).toContainText("07400 123456 · mobile · United Kingdom");
  await expect(phone).toContainText("+447400123456");

  // A country that is not two letters is said in the form's words before anything is sent.
  await form.getByLabel("Number's country").fill("GBR");
  await page.getByTestId("run-assessment").click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Number's country must be a two-letter country code such as GB." }),
  ).toBeVisible();
});

test("older assessments of an account load by keyboard, the focus on the first of them", async ({ page }, testInfo) => {
  const key = await newWorkspace(page, "Older assessments", ["suite_starter"]);
  // One page more than the account page shows at once (20).
  for (let i = 1; i <= 22; i++) {
    const res = await page.request.post("/v1/assess", {
      headers: { Authorization: `Bearer ${key}` },
      data: { event: "login", ip: `198.51.100.${i}`, user_id: "dora" },
    });
    expect(res.status(), `assessment ${i}`).toBe(200);
  }
  await page.goto("/dashboard/users/dora");
  const assessments = page.getByTestId("user-assessments").locator("li");
  await expect(assessments).toHaveCount(20);
  await page.getByRole("button", { name: "Older assessments" }).press("Enter");
  await expect(assessments).toHaveCount(22);
  // The button is gone (nothing older): the focus is on the first older assessment, not at the page's top.
  await expect(page.getByRole("button", { name: "Older assessments" })).toHaveCount(0);
  await expect(assessments.nth(20)).toBeFocused();
  await expect(assessments.nth(20)).toContainText("login from 198.51.100.2,");
  await snap(page, testInfo, "user-older-assessments");
});

test("an address that is both a user id and an email-known account says so, and each opens (?key=email)", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Two kinds", ["suite_starter"]);
  const form = page.getByTestId("assess-form");
  // The address sent as a user id (device dev-uid), and an assessment sent without one from the same mailbox
  // (device dev-mail): two accounts of one name.
  for (const [userId, device] of [
    ["dana@example.com", "dev-uid"],
    ["", "dev-mail"],
  ] as const) {
    await page.goto("/dashboard/assess");
    await form.getByLabel("IP address (required)").fill("10.0.0.8");
    await form.getByLabel("Email").fill("dana@example.com");
    if (userId) await form.getByLabel("User id").fill(userId);
    await form.getByLabel("Device id").fill(device);
    await page.getByTestId("run-assessment").click();
    await expect(page.getByTestId("assessment-answer").getByTestId("decision")).toBeVisible();
  }

  // By default the user id's account, with a notice that the mailbox's account exists and a link to it.
  await page.goto(`/dashboard/users/${encodeURIComponent("dana@example.com")}`);
  const view = page.getByTestId("user-view");
  await expect(view.getByTestId("identifier-device")).toContainText("dev-uid");
  const notice = view.getByTestId("user-other-key");
  await expect(notice).toContainText("Sent as a user id.");
  await expect(notice).toContainText("assessments sent without a user id from this mailbox");
  await expect(notice).not.toContainText(/user_id|other_key|key=/);
  // The mailbox's account is linked to this one by the mailbox: its link opens that account, not this page again.
  await expect(view.getByTestId("linked-account").getByRole("link", { name: "dana@example.com" })).toHaveAttribute(
    "href",
    "/dashboard/users/dana%40example.com?key=email",
  );
  await snap(page, testInfo, "user-other-key-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "user-other-key-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  // By keyboard, the link opens the mailbox's account (?key=email), its heading focused, and links back.
  await notice.getByRole("link", { name: "Open the account known by this email address" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?key=email$/);
  await expect(view.getByTestId("identifier-device")).toContainText("dev-mail");
  await expect(view.getByTestId("identifier-device")).not.toContainText("dev-uid");
  await expect(view.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(notice).toContainText("Known by its email address");
  await snap(page, testInfo, "user-key-email-1280");
  await notice.getByRole("link", { name: "Open the account of this user id" }).click();
  await expect(page).toHaveURL(/\/dashboard\/users\/dana%40example\.com$/);
  await expect(view.getByTestId("identifier-device")).toContainText("dev-uid");

  // The address typed with ?key=email opens that kind directly; an account of one kind only has no notice.
  await page.goto(`/dashboard/users/${encodeURIComponent("dana@example.com")}?key=email`);
  await expect(view.getByTestId("identifier-device")).toContainText("dev-mail");
  await page.goto(`/dashboard/users/${encodeURIComponent("nobody-else")}?key=email`);
  await expect(view.getByTestId("user-empty")).toBeVisible();

  // The review queue: the case of the assessment sent without a user id opens the mailbox's account, not the user
  // id's account of the same address.
  await page.goto("/dashboard/cases");
  const cards = page.getByTestId("case-card");
  await expect(cards).toHaveCount(2);
  const hrefs: string[] = [];
  for (let i = 0; i < 2; i++) {
    await cards.nth(i).getByTestId("case-open").click();
    const link = cards.nth(i).getByTestId("case-user-link");
    await expect(link).toBeVisible();
    hrefs.push((await link.getAttribute("href")) ?? "");
  }
  expect(hrefs.sort()).toEqual([
    "/dashboard/users/dana%40example.com",
    "/dashboard/users/dana%40example.com?key=email",
  ]);
});
