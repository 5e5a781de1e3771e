// A refused form says its problem at the field it is about, as screen readers expect: the field carries
// aria-invalid="true" and is described by the refusal's text (aria-describedby), and after a submit made from the
// keyboard, focus is on that field (app/dashboard/_components/field-problem.ts). On every form of the Scans, Links,
// Senders, Vulnerabilities and Console pages, at 1280 and 390 px.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

/** The refusal `text` is shown, and `field` is marked by it, described by it and focused. */
async function expectRefusalAt(field: Locator, note: Locator, text: string | RegExp): Promise<void> {
  await expect(note).toHaveText(text);
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(text instanceof RegExp ? text : new RegExp(escape(text)));
  await expect(field).toBeFocused();
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Both widths, each with a screenshot, the page never wider than the window. */
async function atBothWidths(page: Page, testInfo: import("@playwright/test").TestInfo, name: string) {
  await snap(page, testInfo, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("Scans, Links and Senders mark the refused field, describe it by the refusal and focus it", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Form errors", ["suite_starter", "email"]);

  await page.goto("/dashboard/scans");
  const site = page.getByLabel("Site");
  await site.fill("not a host!");
  await site.press("Enter");
  await expectRefusalAt(
    site,
    page.getByTestId("error-note"),
    "Site must be an http(s) URL or a host name, without credentials.",
  );
  // The visibility keeps its own hint as its description, and is not marked.
  await expect(page.getByLabel("Visibility")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Visibility")).toHaveAccessibleDescription("Only this workspace can see it.");
  await atBothWidths(page, testInfo, "scans-refused");

  await page.goto("/dashboard/links");
  const destination = page.getByLabel("Destination");
  await destination.fill("javascript:alert(1)");
  await destination.press("Enter");
  await expectRefusalAt(
    destination,
    page.getByTestId("error-note"),
    "Destination must be an absolute http:// or https:// URL.",
  );
  await expect(page.getByLabel("Expires")).not.toHaveAttribute("aria-invalid", "true");
  await atBothWidths(page, testInfo, "links-refused");

  await page.goto("/dashboard/senders");
  const domain = page.getByRole("textbox", { name: "Domain", exact: true });
  await domain.fill("not a domain");
  await domain.press("Enter");
  await expectRefusalAt(
    domain,
    page.getByTestId("add-sender-error"),
    "Domain: A domain name has no spaces, slashes, ports, @ or brackets.",
  );
  // A refused DKIM selector marks that field, which keeps its hint in its description.
  await domain.fill("example.org");
  const selectors = page.getByLabel("DKIM selectors (optional)");
  await selectors.fill("s1, not/ok");
  await selectors.press("Enter");
  await expect(page.getByTestId("add-sender-error")).toHaveText(
    "DKIM selectors: A DKIM selector is one or more DNS labels, e.g. s1.",
  );
  await expect(selectors).toHaveAttribute("aria-invalid", "true");
  await expect(selectors).toBeFocused();
  await expect(selectors).toHaveAccessibleDescription(/common selectors are tried.*DKIM selectors/);
  await expect(domain).not.toHaveAttribute("aria-invalid", "true");
  await atBothWidths(page, testInfo, "senders-refused");
});

test("the Vulnerabilities panels and the lookup console mark the refused field and focus it", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Form errors lookups", []);
  await page.goto("/dashboard/vulnerabilities");

  const pkg = page.getByTestId("package-panel");
  const coordinate = pkg.locator('input[name="coordinate"]');
  await coordinate.fill("%%%");
  await coordinate.press("Enter");
  await expectRefusalAt(
    coordinate,
    page.getByTestId("lookup-error").getByTestId("error-note"),
    "Package: Expected an npm package name such as express or @babel/core.",
  );
  // A version the registry does not list is about the Version field.
  await coordinate.fill("@acme/widget");
  const version = pkg.locator('input[name="version"]');
  await version.fill("9.9.9");
  await version.press("Enter");
  await expect(page.getByTestId("error-note")).toHaveAttribute("data-code", "VERSION_NOT_FOUND");
  await expect(version).toHaveAttribute("aria-invalid", "true");
  await expect(version).toBeFocused();
  await expect(coordinate).not.toHaveAttribute("aria-invalid", "true");
  await atBothWidths(page, testInfo, "package-refused");

  await page.getByRole("tab", { name: "CVE lookup" }).click();
  const cve = page.getByTestId("cve-panel");
  const cveId = cve.getByLabel("CVE identifier");
  await cveId.fill("CVE-1");
  await cveId.press("Enter");
  await expectRefusalAt(
    cveId,
    cve.getByTestId("error-note"),
    "CVE identifier must be a CVE identifier such as CVE-2021-44228.",
  );
  await atBothWidths(page, testInfo, "cve-refused");

  await page.getByRole("tab", { name: "Known-exploited catalog" }).click();
  const kev = page.getByTestId("kev-panel");
  await kev.getByLabel("Added since").fill("2025-03-01");
  await kev.getByLabel("Added until").fill("2025-02-01");
  await kev.getByTestId("run-kev").press("Enter");
  await expectRefusalAt(
    kev.getByLabel("Added until"),
    kev.getByTestId("error-note"),
    "Added until must not be before added since.",
  );
  await expect(kev.getByLabel("Added since")).not.toHaveAttribute("aria-invalid", "true");
  await atBothWidths(page, testInfo, "kev-refused");

  await page.goto("/dashboard/console");
  await page.locator('[data-procedure="geo.ipGeo"]').click();
  const panel = page.getByTestId("lookup-panel");
  const ip = panel.getByLabel("IP address");
  await ip.fill("not-an-ip");
  await ip.press("Enter");
  await expect(page.getByTestId("error-note")).toContainText(/^IP address /);
  await expect(ip).toHaveAttribute("aria-invalid", "true");
  await expect(ip).toBeFocused();
  // Its description keeps the field's own hint and adds the refusal.
  await expect(ip).toHaveAccessibleDescription(/Example: 8\.8\.8\.8.*IP address /);
  await atBothWidths(page, testInfo, "console-refused");
});

test("a webhook's refused receiver URL is marked at its field, described by the refusal and focused, new or edited", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Form errors hooks", ["suite_agency"]);
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Name").fill("Alerts");
  const url = page.getByLabel("Receiver URL");
  // A URL the browser's own check takes but the service refuses: said at the URL, not only below the form.
  await url.fill("ftp://hooks.example.com/in");
  await url.press("Enter");
  await expectRefusalAt(url, page.getByTestId("error-note"), "Receiver URL must start with https://.");
  await expect(page.getByLabel("Name")).not.toHaveAttribute("aria-invalid", "true");
  await atBothWidths(page, testInfo, "webhooks-refused");

  // Corrected, it is created; then the same refusal on the edit form is said at its URL field too.
  await url.fill("https://hooks.example.com/in");
  await url.press("Enter");
  await page.getByRole("link", { name: "Open the webhook" }).click();
  await page.getByRole("button", { name: "Edit" }).click();
  const editUrl = page.getByLabel("Receiver URL");
  await editUrl.fill("ftp://hooks.example.com/in");
  await page.getByRole("button", { name: "Save changes" }).press("Enter");
  await expectRefusalAt(editUrl, page.getByTestId("error-note"), "Receiver URL must start with https://.");
  await atBothWidths(page, testInfo, "webhook-edit-refused");
});

test("an invitation the service refuses is said at the Email field, marked and focused; a refusal about the plan is not", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Form errors members", ["suite_starter"]);
  await page.goto("/dashboard/members");
  const email = page.getByLabel("Email");
  // An address the browser's own check takes ("a@b") but the service refuses.
  await email.fill("a@b");
  await page.getByRole("button", { name: "Invite" }).click();
  await expectRefusalAt(email, page.getByTestId("members-error"), "A valid email address is required.");
  await expect(page.getByLabel("Role")).not.toHaveAttribute("aria-invalid", "true");
  await atBothWidths(page, testInfo, "members-refused");
  // Corrected, the invitation goes through and the mark goes with the refusal.
  await email.fill("colleague@example.test");
  await email.press("Enter");
  await expect(page.locator('[data-testid=member-row][data-email="colleague@example.test"]')).toBeVisible();
  await expect(email).not.toHaveAttribute("aria-invalid", "true");
  // Suite Starter includes 3 members, owners counted: a fourth is refused for the plan, not for the address, so the
  // field is not marked and the refusal itself takes the focus.
  await email.fill("third@example.test");
  await email.press("Enter");
  await expect(page.getByTestId("member-row")).toHaveCount(3);
  await email.fill("fourth@example.test");
  await email.press("Enter");
  await expect(page.getByTestId("members-error")).toBeFocused();
  await expect(email).not.toHaveAttribute("aria-invalid", "true");
});
