// One table names every endpoint the ledger and the lookup history record (app/dashboard/_components/
// endpoint-names.ts), so the overview, analytics, the keys page and the history say the same words (issue 42, 16).
import { describe, expect, it } from "vitest";
import { endpointLabel, endpointName } from "../../app/dashboard/_components/endpoint-names";
import { appRouter } from "../../server/api/root";
import type { Meta } from "../../server/api/trpc";

/** Ledger names written outside a metered procedure: background work and the operator's correction. */
const BACKGROUND = ["bulk.job", "bulk.refund", "monitor.run", "monitor.refund", "admin.usage.adjust"];

describe("endpoint names", () => {
  it("names the endpoint of every metered procedure and of the service's own ledger rows", () => {
    const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { meta?: Meta } }> } })
      ._def.procedures;
    const metered = Object.values(procedures)
      .map((p) => p._def.meta?.metered?.endpoint)
      .filter((e): e is string => typeof e === "string");
    expect(metered.length).toBeGreaterThan(20);
    expect([...metered, ...BACKGROUND].filter((e) => !endpointName(e))).toEqual([]);
  });

  it("reads the monitor's runs and the online check in words, and an unknown name as recorded", () => {
    expect(endpointLabel("monitor.run")).toBe("Monitor run");
    expect(endpointLabel("online-check")).toBe("Online check");
    expect(endpointLabel("some.future")).toBe("some.future");
    expect(endpointName("constructor")).toBeNull();
  });
});
