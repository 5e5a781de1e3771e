import { describe, expect, it } from "vitest";
import { entitlementsFor } from "../../server/plans/catalog";

describe("plans and entitlements", () => {
  it.each([
    ["free", 1000, false, false, 1],
    ["email", 1000, false, false, 1],
    ["suite_starter", 1000, true, false, 3],
    ["suite_business", 25000, true, true, 10],
    ["lookups_developer", 25000, true, false, 10],
    ["suite_agency", 250000, true, true, 50],
    ["lookups_growth", 250000, true, true, 50],
  ])("%s: %i units, full=%s, bulk=%s, %i keys", (plan, units, full, bulk, keys) => {
    const e = entitlementsFor([plan]);
    expect(e.monthlyUnits).toBe(units);
    expect(e.capabilities.includes("full")).toBe(full);
    expect(e.capabilities).toEqual(expect.arrayContaining(["geolocation", "vulnerabilities"]));
    expect(e.bulk).toBe(bulk);
    expect(e.apiKeys).toBe(keys);
  });

  it("combines subscriptions by the highest allowance, never by addition", () => {
    const e = entitlementsFor(["email", "suite_starter", "lookups_developer"]);
    expect(e.monthlyUnits).toBe(25000);
    expect(e.apiKeys).toBe(10);
    expect(e.historyDays).toBe(90);
  });

  it("takes the union of capabilities, bulk and webhooks", () => {
    const e = entitlementsFor(["lookups_developer", "suite_business"]);
    expect(e.bulk).toBe(true);
    expect(e.webhooks).toBe(false);
    expect(entitlementsFor(["suite_business", "lookups_growth"]).webhooks).toBe(true);
  });

  it("keeps the Free allowance for a Paid Email subscription without unlocking full intelligence", () => {
    const e = entitlementsFor(["email"]);
    expect(e.monthlyUnits).toBe(1000);
    expect(e.capabilities).not.toContain("full");
  });

  it("treats a workspace without subscriptions as Free", () => {
    expect(entitlementsFor([])).toMatchObject({ plans: ["free"], monthlyUnits: 1000, apiKeys: 1, historyDays: 0 });
  });
});
