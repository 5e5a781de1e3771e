// Charging in one place (issue 44, item 3): every procedure has an entry in server/api/charging.ts, of the kind its
// meta says (a metered lookup, a bulk job, a monitor run, or unmetered); the OpenAPI document's x-service-cost is
// the table's; the units a request reserves are the table's count; a bulk item costs what its procedure costs and a
// monitor run what its checks cost, both answered by charging.ts (handed to server/bulk/ and server/monitors/ by the
// API layer), and so is what they give back.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { registerBulkProcedures } from "../../server/api/bulk-procedures";
import {
  bulkItemGivenBack,
  bulkItemUnits,
  cancelledItemsGivenBack,
  CHARGING,
  chargingOf,
  costOf,
  givenBackOf,
  JOB_CHARGING,
  monitorCheckCharge,
  monitorCheckUnits,
  monitorRunUnits,
  unitsOf,
  type Charging,
} from "../../server/api/charging";
import { ACCOUNT_ROUTES, costRows, withCostTable } from "../../server/api/cost-table";
import { reserveJobUnits } from "../../server/api/ladder";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { appRouter } from "../../server/api/root";
import type { Meta } from "../../server/api/trpc";
import { AppError } from "../../server/errors";
import { planJob } from "../../server/bulk/jobs";
import { KINDS, type BulkKind } from "../../server/bulk/kinds";
import { bulkProcedures, jobCharging } from "../../server/bulk/procedures";
import { estimateMonitorUnits, unitsPerMonth } from "../../server/monitors/estimate";
import { toMonitorRecord, type MonitorRow } from "../../server/monitors/records";
import { entitlementsFor } from "../../server/plans/catalog";

registerBulkProcedures();

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;

/** The kind of charging a procedure's meta implies. */
function kindOfMeta(meta: Meta | undefined, path: string): Charging["kind"] {
  if (meta?.metered) return "lookup";
  if (path === "monitors.run") return "monitor-run";
  return meta?.charges ? "job" : "free";
}

/** The line a procedure without an entry needs, in the table's own words. */
function lineToAdd(path: string, meta: Meta | undefined): string {
  const kind = kindOfMeta(meta, path);
  if (kind === "lookup")
    return meta?.metered?.cost && meta.metered.cost !== "1 unit"
      ? `"${path}": lookup("${meta.metered.cost}", (input) => <the units of this input>),`
      : `"${path}": ONE_UNIT,`;
  if (kind === "job") return `"${path}": BULK_JOB,`;
  if (kind === "monitor-run") return `"${path}": MONITOR_RUN,`;
  return `"${path}": FREE,`;
}

describe("the charging table", () => {
  it("has an entry for every procedure, of the kind its meta says", () => {
    const missing = Object.entries(procedures)
      .filter(([path]) => !chargingOf(path))
      .map(([path, p]) => lineToAdd(path, p._def.meta));
    expect(
      missing,
      `Procedures without a charging entry. Add each line to CHARGING in server/api/charging.ts (next to its router's other procedures):\n${missing.join("\n")}\n`,
    ).toEqual([]);
    const wrong = Object.entries(procedures)
      .filter(([path, p]) => chargingOf(path)!.kind !== kindOfMeta(p._def.meta, path))
      .map(
        ([path, p]) =>
          `${path}: the table says ${chargingOf(path)!.kind}, the procedure is ${kindOfMeta(p._def.meta, path)}`,
      );
    expect(wrong, "entries of the wrong kind in server/api/charging.ts").toEqual([]);
  });

  it("names no procedure that is gone", () => {
    const stale = Object.keys(CHARGING).filter((path) => !Object.hasOwn(procedures, path));
    expect(stale, "entries in server/api/charging.ts whose procedure no longer exists: remove them").toEqual([]);
  });

  it("the test notices a procedure without an entry (the check can fail)", () => {
    expect(chargingOf("phone.phoneLookup_not_yet")).toBeUndefined();
    expect(lineToAdd("phone.lookup", { metered: { cost: "1 unit" } } as Meta)).toBe('"phone.lookup": ONE_UNIT,');
    expect(lineToAdd("users.list", {} as Meta)).toBe('"users.list": FREE,');
  });

  it("is what the OpenAPI document and the procedures' meta say an operation costs", () => {
    const doc = getOpenApiDocument() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const costs = new Map<string, unknown>();
    for (const [template, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops))
        costs.set(`${method.toUpperCase()} ${template}`, op["x-service-cost"]);
    let charged = 0;
    for (const [path, p] of Object.entries(procedures)) {
      const meta = p._def.meta;
      const entry = chargingOf(path)!;
      if (entry.kind === "lookup") expect(meta?.metered?.cost, path).toBe(entry.cost);
      if (entry.kind === "job" || entry.kind === "monitor-run") expect(meta?.charges, path).toBe(entry.cost);
      if (!meta?.openapi) continue;
      const key = `${meta.openapi.method} ${meta.openapi.path.replace(/^\/?/, "/").replace(/\/$/, "") || "/"}`;
      const documented = [...costs].find(([k]) => k.replace(/\/$/, "") === key)?.[1];
      if (entry.kind !== "free") {
        expect(documented, `${key} (${path})`).toBe(costOf(path));
        charged += 1;
      } else expect(documented, `${key} (${path})`).toBeUndefined();
    }
    expect(charged).toBeGreaterThan(25);
    expect(costOf("cidr.cidrCheck")).toMatch(/^2\^\(32-prefix\) units/);
  });

  it("is README's table of what each route costs (npm run costs:table), a row for every charged procedure", () => {
    const readme = readFileSync(path.join(process.cwd(), "README.md"), "utf8");
    expect(readme, "README.md's cost table is stale: run `npm run costs:table`").toBe(withCostTable(readme));
    const rows = costRows();
    const charged = Object.keys(CHARGING).filter((p) => costOf(p) !== null);
    expect(rows.map((r) => r.procedure).sort()).toEqual(charged.sort());
    for (const r of rows) {
      expect(r.cost, r.procedure).toBe(costOf(r.procedure));
      expect(readme, r.procedure).toContain(`| \`${r.route}\` | ${r.cost.replace(/\|/g, "\\|")} |`);
    }
    expect(rows.find((r) => r.procedure === "geo.ipGeo")?.route).toBe("GET /v1/ip/{ip}/geo");
    expect(rows.find((r) => r.procedure === "cidr.cidrCheck")?.needs).toBe("`full`, bulk lookups");
    expect(rows.find((r) => r.procedure === "reports.create")?.route).toBe(ACCOUNT_ROUTES["reports.create"]);
  });

  it("counts a request's units from its input", () => {
    expect(unitsOf("geo.ipGeo", { ip: "8.8.8.8" })).toBe(1);
    expect(unitsOf("blocklists.blocklistsCheck", { targets: ["1.1.1.1", "2.2.2.2", "example.com"] })).toBe(3);
    expect(unitsOf("cidr.cidrCheck", { cidr: "203.0.113.0/30" })).toBe(4);
    expect(unitsOf("cidr.cidrCheck", { cidr: "203.0.113.0/32" })).toBe(1);
    expect(unitsOf("cidr.cidrCheck", { cidr: "10.0.0.0/8" })).toBe(7);
    const lockfile = JSON.stringify({
      name: "x",
      lockfileVersion: 3,
      packages: {
        "": { name: "x" },
        "node_modules/a": { version: "1.0.0" },
        "node_modules/b": { version: "2.0.0" },
        "node_modules/c/node_modules/a": { version: "1.0.0" },
      },
    });
    expect(unitsOf("vulnerabilities.scan", { lockfile })).toBe(2);
    // A procedure not in the table yet (the test above fails for it) reserves 1 unit: no procedure declares its own.
    expect(unitsOf("phone.notYet", { n: 5 })).toBe(1);
  });

  it("a bulk item costs what its procedure costs, as charging.ts answers it (the job's plan asks it)", async () => {
    const samples: Record<BulkKind, string> = {
      ip: "8.8.8.8",
      "ip.geo": "8.8.8.8",
      asn: "AS15169",
      domain: "example.com",
      dns: "example.com",
      "email.security": "example.com",
      blocklists: "8.8.8.8",
      subdomains: "example.com",
      email: "someone@example.com",
      "host.status": "example.com",
      online: "https://example.com",
      cidr: "203.0.113.0/30",
      cve: "CVE-2021-44228",
      package: "pkg:npm/left-pad@1.3.0",
    };
    const everything = entitlementsFor(["suite_business"]);
    for (const [kind, spec] of Object.entries(KINDS) as [BulkKind, (typeof KINDS)[BulkKind]][]) {
      const target = samples[kind];
      expect(target, `a sample target for the bulk kind ${kind}`).toBeDefined();
      const input = spec.input(target);
      expect(input, kind).not.toHaveProperty("error");
      expect(chargingOf(spec.procedure)?.kind, `${kind}: ${spec.procedure}`).toBe("lookup");
      const plan = await planJob(everything, kind, [target]);
      expect(plan.problems, kind).toEqual([]);
      expect(plan.lines[0]!.units, kind).toBe(bulkItemUnits(spec.procedure, input));
      expect(plan.lines[0]!.units, kind).toBe(unitsOf(spec.procedure, input));
    }
    // Not one unit each: a range's addresses, as a single request of the CIDR check reserves them.
    const ranges = await planJob(everything, "auto", ["203.0.113.0/30", "198.51.100.0/29", "10.0.0.0/8", "8.8.8.8"]);
    expect(ranges.lines.map((l) => l.units)).toEqual([4, 8, 7, 1]);
    expect(ranges.units).toBe(20);
  });

  it("a monitor run costs what charging.ts says its checks cost, in the run and in the estimate", () => {
    expect(monitorCheckUnits()).toBe(1);
    expect(monitorCheckUnits({ units: 12 })).toBe(12);
    expect(monitorCheckUnits({ error: new AppError("NOT_FOUND", "no scan") })).toBe(0);
    expect(monitorRunUnits({ checks: 3 })).toBe(3);
    expect(monitorRunUnits({ checks: 1, prepared: 12 })).toBe(12);
    const estimate = estimateMonitorUnits({
      monitor: { checks: 3, interval: "24h" },
      otherActive: [{ checks: 1, interval: "24h", unitsPerRun: 12 }],
      monthlyAllowance: 1000,
    });
    expect(estimate).toMatchObject({ units_per_run: monitorRunUnits({ checks: 3 }), units_per_month: 90 });
    expect(estimate.workspace_units_per_month).toBe(90 + monitorRunUnits({ checks: 1, prepared: 12 }) * 30);
    expect(unitsPerMonth({ checks: 2, interval: "7d" })).toBe(monitorRunUnits({ checks: 2 }) * 4);
    // A stored monitor's `units_per_run` says the same (server/monitors/records.ts counts its checks).
    const now = new Date();
    const row: MonitorRow = {
      id: "mon_1",
      workspaceId: "ws_1",
      name: null,
      target: "example.com",
      checks: [{ type: "tls" }, { type: "dns", record_types: ["A", "MX", "TXT"] }, { type: "email_security" }],
      interval: "24h",
      thresholds: { tls_expiry_days: [14, 7] },
      status: "active",
      nextRunAt: now,
      lastRunAt: null,
      lastStates: null,
      emailAlerts: null,
      emailUnsubscribed: [],
      createdAt: now,
      updatedAt: now,
    };
    expect(toMonitorRecord(row).units_per_run).toBe(monitorRunUnits({ checks: 3 }));
    expect(toMonitorRecord({ ...row, checks: [{ type: "project" }], target: "shop" }, 12).units_per_run).toBe(
      monitorRunUnits({ checks: 1, prepared: 12 }),
    );
  });

  it("bulk jobs and monitor runs are handed charging.ts's answers and the ladder's reservation, and keep no rule of their own", () => {
    expect(jobCharging()).toBe(JOB_CHARGING);
    expect(bulkProcedures().reserveJob).toBe(reserveJobUnits);
    expect(Object.values(JOB_CHARGING)).toEqual(
      expect.arrayContaining([
        bulkItemUnits,
        bulkItemGivenBack,
        cancelledItemsGivenBack,
        monitorCheckUnits,
        monitorRunUnits,
        monitorCheckCharge,
      ]),
    );
    // The code of server/bulk/ and of a monitor's run and estimate counts no units of its own: no CIDR arithmetic, no
    // per-kind unit, no "one per check", no refund that does not come from JOB_CHARGING.
    const dirs = ["server/bulk", "server/monitors"].map((d) => path.join(process.cwd(), d));
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const full = path.join(dir, n);
        return statSync(full).isDirectory() ? walk(full) : n.endsWith(".ts") ? [full] : [];
      });
    const files = dirs.flatMap((d) => walk(d));
    const code = (f: string) =>
      readFileSync(f, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/(^|[^:])\/\/.*$/gm, "$1");
    const rel = (f: string) => path.relative(process.cwd(), f).split(path.sep).join("/");
    expect(files.filter((f) => /cidrUnits|unitsOf\(/.test(code(f))).map(rel)).toEqual([]);
    expect(code(path.join(process.cwd(), "server/bulk/kinds.ts"))).not.toMatch(/\bunits\b/);
    for (const f of ["server/bulk/jobs.ts", "server/monitors/run.ts", "server/monitors/estimate.ts"]) {
      const text = code(path.join(process.cwd(), f));
      expect(text, f).toMatch(/jobCharging\(\)/);
      expect(text, f).not.toMatch(/units:\s*1\b|\?\?\s*(?:a\.monitor|m)\.checks/);
    }
    expect(code(path.join(process.cwd(), "server/bulk/worker.ts"))).toMatch(/jobCharging\(\)\.bulkItemGivenBack\(/);
  });

  it("says what a bulk item, a cancelled job and a monitor check give back", () => {
    const unavailable = { units: 4, reason: "Not answered (503 UPSTREAM_UNAVAILABLE): no list answered" };
    expect(bulkItemGivenBack(4, { abandoned: "The lookup could not be completed after 3 attempts." })).toEqual({
      units: 4,
      reason: "not answered: The lookup could not be completed after 3 attempts.",
    });
    expect(bulkItemGivenBack(2, { admitted: false, failed: "Private addresses are not looked up." })).toEqual({
      units: 2,
      reason: "refused before it ran: Private addresses are not looked up.",
    });
    expect(bulkItemGivenBack(4, { admitted: true, givenBack: unavailable, failed: "no list answered" })).toEqual(
      unavailable,
    );
    expect(bulkItemGivenBack(4, { admitted: true, failed: "Not found." })).toBeNull();
    expect(bulkItemGivenBack(1, { admitted: true, givenBack: { units: 3, reason: "x" } })).toEqual({
      units: 1,
      reason: "x",
    });
    expect(bulkItemGivenBack(1, { admitted: true })).toBeNull();

    expect(cancelledItemsGivenBack("job_1", [{ units: 1 }, { units: 4 }])).toEqual({
      units: 5,
      reason: "Job job_1 cancelled: 2 items not run",
    });
    expect(cancelledItemsGivenBack("job_1", [])).toBeNull();

    // Its units ride on the first admitted lookup; refused lookups carry them on; a lookup that gave them back ends it.
    const answered = monitorCheckCharge(1);
    expect(answered.next()).toBe(1);
    answered.settle({ units: 1, admitted: false });
    expect(answered.next()).toBe(1);
    answered.settle({ units: 1, admitted: true });
    expect([answered.next(), answered.charged(), answered.givenBack()]).toEqual([0, 1, 0]);
    const unanswered = monitorCheckCharge(12);
    unanswered.settle({ units: 12, admitted: true, givenBack: { units: 12, reason: "OSV did not answer" } });
    expect([unanswered.next(), unanswered.charged(), unanswered.givenBack()]).toEqual([0, 0, 12]);
    const refused = monitorCheckCharge(1);
    refused.settle({ units: 1, admitted: false });
    expect([refused.charged(), refused.givenBack()]).toEqual([0, 1]);
  });

  it("gives back all of a 5xx, the unanswered part of a batch, nothing of a 4xx", () => {
    const unavailable = new AppError("UPSTREAM_UNAVAILABLE", "OSV did not answer.");
    expect(givenBackOf({}, {}, { ok: false, error: unavailable }, 3)).toEqual({
      units: 3,
      reason: "Not answered (503 UPSTREAM_UNAVAILABLE): OSV did not answer.",
    });
    expect(givenBackOf({}, {}, { ok: false, error: new AppError("NOT_FOUND", "none") }, 3)).toBeNull();
    const batch = { unanswered: () => ({ units: 5, reason: "2 targets not answered" }) };
    expect(givenBackOf(batch, {}, { ok: true, data: {} }, 2)).toEqual({ units: 2, reason: "2 targets not answered" });
    expect(givenBackOf(batch, {}, { ok: true, data: {} }, 0)).toBeNull();
  });
});
