// Lookup results shown as answers: a summary card per kind, yes/no coloured by what it means, details and raw
// JSON on demand; and saved reports that appear in the list as soon as they are saved.
import { expect, test, type Page } from "@playwright/test";
import { createTestPki, startTlsServer } from "../test/fakes/tls-server";
import { publishDnsRecords } from "./dns-records";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

async function runLookup(
  page: Page,
  procedure: string,
  fill: (panel: ReturnType<Page["getByTestId"]>) => Promise<void>,
) {
  await page.locator(`[data-procedure="${procedure}"]`).click();
  const panel = page.getByTestId("lookup-panel");
  await fill(panel);
  await page.getByTestId("run-lookup").click();
  await expect(page.getByTestId("quota-change")).toBeVisible();
}

test("IP, email and DNS answers open with a summary card; booleans are coloured by meaning", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Answers", ["suite_starter"]);
  await page.goto("/dashboard/console");
  const result = page.getByTestId("result-view");

  await runLookup(page, "ip.ipLookup", (p) => p.getByLabel("IP address").fill("8.8.8.8"));
  const ip = result.getByTestId("answer-card");
  await expect(ip).toHaveAttribute("data-kind", "ip");
  await expect(ip).toContainText("ASN");
  await expect(ip.getByTestId("answer-risk")).toContainText("risk");
  const badges = ip.getByTestId("anonymizer-badges");
  await expect(badges).toContainText("Tor");
  await expect(badges).toContainText("VPN");
  // "Tor: no" is good news, whatever colour `false` used to have.
  await expect(badges.locator(".flag", { hasText: /^Tor:/ })).toHaveAttribute("data-meaning", /good|neutral/);
  await snap(page, testInfo, "answer-ip");
  // The details, on demand, in words: labels rather than the API's field names, and no row of "null"s.
  const details = result.getByTestId("answer-details");
  await expect(details).not.toHaveAttribute("open");
  await details.locator("summary").click();
  await expect(details.locator('tr[data-key="ip"] > th')).toHaveText("IP address");
  const labels = await details.locator("th").allInnerTexts();
  expect(
    labels.filter((l) => /[a-z][A-Z]|_/.test(l)),
    "labels written as API field names",
  ).toEqual([]);
  await expect(details).not.toContainText(/\bnull\b/);
  await snap(page, testInfo, "answer-ip-details");
  await details.locator("summary").click();
  // The abuse contact is one click (and one unit) away; with no registry reachable it says so in words.
  await ip.getByRole("button", { name: "Find the abuse contact (1 unit)" }).click();
  const abuse = ip.getByTestId("abuse-contact");
  await expect(
    abuse.locator(
      '[data-testid="abuse-found"], [data-testid="abuse-none"], [data-testid="error-note"], [data-read-failed]',
    ),
  ).toBeVisible({ timeout: 30_000 });
  await expect(abuse).not.toContainText("UPSTREAM_UNAVAILABLE");

  await runLookup(page, "email.emailCheck", (p) =>
    p.getByLabel("Request body (JSON)").fill('{"email":"someone@answers.example.test"}'),
  );
  const email = result.getByTestId("answer-card");
  await expect(email).toHaveAttribute("data-kind", "email");
  await expect(email.getByTestId("flag-disposable")).toHaveAttribute("data-meaning", "good");
  await expect(email.getByTestId("flag-disposable")).toContainText("no");
  await result.getByTestId("answer-details").locator("summary").click();
  const disposable = result.locator('tr[data-key="disposable"] .bool').first();
  await expect(disposable).toHaveText("no");
  await expect(disposable).toHaveAttribute("data-meaning", "good");
  await expect(result.locator('tr[data-key="freeProvider"] .bool').first()).toHaveAttribute("data-meaning", "neutral");
  await snap(page, testInfo, "answer-email");
  // At phone width the card, the open details and the raw JSON fit without scrolling the page sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await result.getByTestId("answer-raw").locator("summary").click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
  await snap(page, testInfo, "answer-email-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  publishDnsRecords({
    "records.answers.example.test": [
      { type: "A", data: "192.0.2.44" },
      { type: "A", data: "192.0.2.45" },
    ],
  });
  await runLookup(page, "dns.dnsLookup", async (p) => {
    await p.getByLabel("Domain").fill("records.answers.example.test");
    await p.getByLabel("Record type").fill("A");
  });
  const dns = result.getByTestId("answer-card");
  await expect(dns).toHaveAttribute("data-kind", "dns");
  await expect(dns.getByTestId("dns-records")).toContainText("192.0.2.44");
  await expect(dns.getByTestId("dns-records").locator("tbody tr")).toHaveCount(2);
  await snap(page, testInfo, "answer-dns");
  // No operator instructions anywhere in a user view.
  await expect(page.locator("body")).not.toContainText("feeds refresh");
  await expect(page.locator("body")).not.toContainText("npm run admin");
});

test("a saved report appears in the list at once and reopens as an answer", async ({ page }, testInfo) => {
  await newWorkspace(page, "Reports", ["suite_starter"]);
  await page.goto("/dashboard/reports");
  await expect(page.getByText("No saved reports yet.")).toBeVisible();
  const report = {
    email: "someone@example.test",
    syntax: { valid: true, reason: null, localPart: "someone", domain: "example.test" },
    normalized: "someone@example.test",
    disposable: false,
    freeProvider: false,
    roleAccount: false,
    mx: { status: "absent", acceptsMail: false, nullMx: false, records: [], reason: "No mail server." },
    suggestion: null,
    score: 40,
    riskLevel: "medium",
    reasons: [{ code: "no_mx", weight: 40, message: "The domain has no mail server." }],
  };
  const form = page.getByTestId("save-report-form");
  await form.getByLabel("Title").fill("Checkout email");
  // Pasting JSON is the collapsed fallback; a result's own "Save report" button is the usual way in.
  await form.getByText("Paste a report as JSON instead").click();
  await form.getByLabel("Report (JSON object)").fill(JSON.stringify(report));
  await form.getByRole("button", { name: /Save report/ }).click();
  // Regression: the list is an infinite query and used to keep its old page until a reload.
  const row = page.getByTestId("report-row").filter({ hasText: "Checkout email" });
  await expect(row).toHaveCount(1);
  await expect(page.getByText("No saved reports yet.")).toHaveCount(0);
  await row.getByRole("button", { name: "View" }).click();
  const open = page.getByTestId("open-report");
  await expect(open.getByTestId("answer-card")).toHaveAttribute("data-kind", "email");
  await expect(open.getByTestId("answer-risk")).toContainText("medium");
  await expect(open).toContainText("The domain has no mail server.");
  await snap(page, testInfo, "report-reopened");
});

test("a TLS answer leads with the days left and the chain verdict", async ({ page }, testInfo) => {
  const pki = createTestPki("Answers Test Root CA");
  const server = await startTlsServer(pki.issue({ names: ["localhost"], ips: ["127.0.0.1"], days: 30 }));
  try {
    await newWorkspace(page, "Answers TLS", ["suite_starter"]);
    await page.goto("/dashboard/console");
    await runLookup(page, "hosts.hostSsl", (p) => p.getByLabel("Host name").fill(`127.0.0.1:${server.port}`));
    const card = page.getByTestId("result-view").getByTestId("answer-card");
    await expect(card).toHaveAttribute("data-kind", "tls");
    // Issued by a CA the service does not trust: the chain verdict says so first.
    await expect(card.getByTestId("tls-verdict")).toHaveText("certificate problem");
    await expect(card.getByTestId("tls-chain")).toContainText("chain not trusted");
    await expect(card.getByTestId("tls-days-left")).toHaveText(/^(29|30)$/);
    await expect(card.locator(".flag", { hasText: /^Trusted chain:/ })).toHaveAttribute("data-meaning", "bad");
    await expect(card.locator(".flag", { hasText: /^Expired:/ })).toHaveAttribute("data-meaning", "good");
    await snap(page, testInfo, "answer-tls");
  } finally {
    await server.close();
  }
});

test("a domain answer leads with age, registrar, mail posture and risk", async ({ page }, testInfo) => {
  const domain = "shop.answers-domain.example.test";
  publishDnsRecords({
    [domain]: [
      { type: "A", data: "192.0.2.80" },
      { type: "MX", data: { preference: 10, exchange: `mx.${domain}` } },
      { type: "TXT", data: ["v=spf1 -all"] },
    ],
    [`_dmarc.${domain}`]: [{ type: "TXT", data: ["v=DMARC1; p=reject"] }],
  });
  await newWorkspace(page, "Answers domain", ["suite_starter"]);
  await page.goto("/dashboard/console");
  await runLookup(page, "domain.domainIntel", (p) => p.getByLabel("Domain").fill(domain));
  const card = page.getByTestId("result-view").getByTestId("answer-card");
  await expect(card).toHaveAttribute("data-kind", "domain");
  await expect(card).toContainText("Age");
  await expect(card).toContainText("Registrar");
  await expect(card).toContainText("Mail posture");
  await expect(card).toContainText("DMARC");
  await expect(card.getByTestId("answer-risk")).toContainText("risk");
  await snap(page, testInfo, "answer-domain");
});
