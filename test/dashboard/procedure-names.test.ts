// The analytics page's table of requests and errors per endpoint named the dashboard's own calls from their paths
// ("Account: overview", "Senders: add"), words a customer never sees anywhere else. Each call without a REST route
// now has words of its own (app/dashboard/analytics/procedure-names.ts); the API's keep their published summary.
import { describe, expect, it } from "vitest";
import { DASHBOARD_CALLS, procedureNames } from "../../app/dashboard/analytics/procedure-names";
import { appRouter } from "../../server/api/root";
import type { Meta } from "../../server/api/trpc";

const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { meta?: Meta } }> } })._def
  .procedures;
const dashboardOnly = Object.keys(procedures).filter((p) => !procedures[p]!._def.meta?.openapi);

describe("the analytics page's endpoint names", () => {
  it("names every dashboard call in words, and none that does not exist", () => {
    expect(dashboardOnly.length).toBeGreaterThan(10);
    const names = procedureNames();
    expect(dashboardOnly.filter((p) => !names[p])).toEqual([]);
    expect(Object.keys(DASHBOARD_CALLS).filter((p) => !procedures[p])).toEqual([]);
    for (const p of dashboardOnly) {
      expect(names[p]!.route).toBeNull();
      // Words, not the procedure's path or its parts ("Account: overview", "create key").
      expect(names[p]!.summary).not.toMatch(/^[A-Z][a-z]+: |[a-z][A-Z]|\./);
    }
  });

  it("says the workspace overview and a sender's addition as the pages do, and keeps the API's summaries", () => {
    const names = procedureNames();
    expect(names["account.overview"]).toEqual({ summary: "Workspace overview (plan, usage and role)", route: null });
    expect(names["senders.add"]).toEqual({ summary: "Add a sender", route: null });
    expect(names["rules.get"]?.route).toBe("GET /v1/rules/{id}");
  });
});
