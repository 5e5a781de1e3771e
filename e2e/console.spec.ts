import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

test("the lookup console shows the cost, runs the geolocation lookup and shows the answer and the quota change", async ({
  page,
}, testInfo) => {
  const key = await newWorkspace(page, "Console", []);
  // Units already used: the quota change counts from them, not from a meter that has not loaded (issue 22, item 5).
  for (const ip of ["1.1.1.1", "9.9.9.9"])
    expect((await page.request.get(`/v1/ip/${ip}/geo`, { headers: { "X-API-Key": key } })).status()).toBe(200);
  await page.goto("/dashboard/console");
  await expect(page.getByRole("link", { name: "IP Geolocation by DB-IP" })).toHaveAttribute(
    "href",
    "https://db-ip.com",
  );

  await page.locator('[data-procedure="geo.ipGeo"]').click();
  await expect(page.getByTestId("lookup-cost")).toContainText("1 unit");
  await expect(page.getByTestId("lookup-cost")).toContainText("in every plan");
  await expect(page.getByTestId("lookup-cost")).not.toContainText("capability");
  const panel = page.getByTestId("lookup-panel");
  // The form first; the API's long description of the lookup after it, folded until asked for.
  const about = panel.getByTestId("lookup-description");
  await expect(about.locator("p")).toBeHidden();
  expect(
    await panel.evaluate((el) => {
      const all = [...el.querySelectorAll("*")];
      const at = (id: string) => all.indexOf(el.querySelector(`[data-testid=${id}]`)!);
      return at("run-lookup") < at("lookup-description");
    }),
    "the run button comes before the description",
  ).toBe(true);
  await about.getByText("About this lookup").click();
  await expect(about.locator("p")).toBeVisible();
  // Inputs have human labels and an example that fills the field.
  await panel.getByRole("button", { name: "8.8.8.8" }).click();
  await expect(panel.getByLabel("IP address")).toHaveValue("8.8.8.8");
  await expect(page.getByTestId("curl-command")).toContainText('"Authorization: Bearer $KEY"', { useInnerText: false });
  await expect(page.getByTestId("curl-command")).toContainText("/v1/ip/8.8.8.8/geo");
  await page.getByTestId("run-lookup").click();

  // The answer first: a summary card with the country by its name; the structure and the JSON on demand.
  const result = page.getByTestId("result-view");
  const card = result.getByTestId("answer-card");
  await expect(card).toHaveAttribute("data-kind", "geo");
  await expect(card.getByTestId("answer-country")).toContainText("US");
  await expect(card.getByTestId("answer-country")).toContainText("United States (US)");
  await expect(page.getByTestId("quota-after")).toHaveText("3");
  await expect(page.getByTestId("quota-change")).toContainText("used 2 → 3 (1 unit consumed");
  await expect(page.getByTestId("usage-used")).toHaveText("3");
  await expect(result.getByTestId("answer-details").locator('tr[data-key="country"]')).toBeHidden();
  await snap(page, testInfo, "console-result");
  await result.getByTestId("answer-details").locator("summary").click();
  await expect(result.locator('tr[data-key="country"]').first()).toContainText("US");
  await result.getByTestId("answer-raw").locator("summary").click();
  await expect(result.getByTestId("answer-raw").locator("pre")).toContainText('"ip": "8.8.8.8"');

  // A private address answers with null location fields and says why.
  await panel.getByLabel("IP address").fill("10.1.2.3");
  await page.getByTestId("run-lookup").click();
  await expect(page.getByTestId("quota-after")).toHaveText("4");
  await result.getByTestId("answer-details").locator("summary").click();
  await expect(result.locator('tr[data-key="city"] .null')).toHaveText("not known");
  await expect(result.locator('tr[data-key="reason"]')).not.toBeEmpty();

  // Invalid input is refused before any unit is reserved.
  await panel.getByLabel("IP address").fill("not-an-ip");
  await page.getByTestId("run-lookup").click();
  await expect(page.getByTestId("error-note")).toHaveAttribute("data-code", "INVALID_REQUEST");
  await expect(page.getByTestId("error-note")).not.toContainText("INVALID_REQUEST");
  // The refusal names the field by the form's label, not the API's name ("ip: …").
  await expect(page.getByTestId("error-note")).toContainText(/^IP address /);
  await expect(page.getByTestId("quota-after")).toHaveText("4");
  await snap(page, testInfo, "console-invalid");
});

test("the console lists each public lookup once, searches the list and copies a curl command with $KEY", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Console list", []);
  await page.goto("/dashboard/console");
  const list = page.getByTestId("lookup-list");
  // Internal procedures are not offered, and a route published at two paths is listed once.
  await expect(list.locator('[data-procedure="reports.create"]')).toHaveCount(0);
  await expect(list.getByRole("button", { name: /CAPTCHA diagnostic/ })).toHaveCount(1);
  const summaries = await list.locator(".lookup-item").allInnerTexts();
  expect(new Set(summaries).size).toBe(summaries.length);

  await page.getByTestId("lookup-search").fill("tls");
  await expect(list.locator('[data-procedure="hosts.hostSsl"]')).toBeVisible();
  await expect(list.locator('[data-procedure="geo.ipGeo"]')).toHaveCount(0);
  expect(await list.locator(".lookup-item").count()).toBeLessThan(summaries.length);
  await page.getByTestId("lookup-search").fill("no such lookup anywhere");
  await expect(list).toContainText("No lookup matches");
  await page.getByTestId("lookup-search").fill("email check");
  await list.locator('[data-procedure="email.emailCheck"]').click();

  // A lookup with a JSON body: the body starts from an example, and the curl command carries it.
  const body = page.getByTestId("lookup-panel").getByLabel("Request body (JSON)");
  await expect(body).toHaveValue(/jane@example\.com/);
  await page.getByTestId("lookup-panel").locator("summary", { hasText: "Show the curl command" }).click();
  const curl = page.getByTestId("curl-command");
  await expect(curl).toContainText("curl -X POST");
  await expect(curl).toContainText("/v1/email/check");
  await expect(curl).toContainText("$KEY");
  await expect(curl).toContainText(`-d '{"email":"jane@example.com"}'`);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy as curl" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('-H "Authorization: Bearer $KEY"');
  expect(copied).not.toMatch(/svc_live_/);
  await snap(page, testInfo, "console-email-curl");
});

test("a URL pasted into a domain field is looked up as its host, and the field shows what was looked up", async ({
  page,
}) => {
  await newWorkspace(page, "Console paste", ["suite_starter"]);
  await page.goto("/dashboard/console");
  await page.locator('[data-procedure="dns.dnsLookup"]').click();
  const panel = page.getByTestId("lookup-panel");
  await panel.getByLabel("Domain").fill("https://www.nothing-here.test/pricing?plan=pro");
  await page.getByTestId("run-lookup").click();
  await expect(panel.getByLabel("Domain")).toHaveValue("www.nothing-here.test");
  await expect(page.getByTestId("curl-command")).toContainText("domain=www.nothing-here.test");
  await expect(page.getByTestId("result-view")).toContainText("NXDOMAIN");
});

test("a body that is not JSON is refused at the body's box, which takes the focus", async ({ page }) => {
  await newWorkspace(page, "Console body", ["suite_business"]);
  await page.goto("/dashboard/console");
  await page.getByTestId("lookup-search").fill("email check");
  await page.getByTestId("lookup-list").locator('[data-procedure="email.emailCheck"]').click();
  const body = page.getByTestId("lookup-panel").getByLabel("Request body (JSON)");
  await expect(body).toHaveValue(/jane@example\.com/);
  // Refused before anything is sent: the box is marked and described by the message, and has the focus (it once went
  // to the message, away from what to correct).
  await body.fill('{"email": jane@example.com}');
  await page.getByTestId("run-lookup").press("Enter");
  const note = page.getByTestId("error-note");
  await expect(note).toContainText("JSON");
  await expect(body).toBeFocused();
  await expect(body).toHaveAttribute("aria-invalid", "true");
  expect((await body.getAttribute("aria-describedby"))?.split(" ")).toContain(await note.getAttribute("id"));
});
