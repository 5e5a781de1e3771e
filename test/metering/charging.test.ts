// Charging in one place (issue 44, item 3): every procedure has an entry in server/api/charging.ts, of the kind its
// meta says (a metered lookup, a bulk job, a monitor run, or unmetered); the OpenAPI document's x-service-cost is
// the table's; the units a request reserves are the table's count, and a bulk item costs what its procedure costs.
import { describe, expect, it } from "vitest";
import { CHARGING, chargingOf, costOf, givenBackOf, unitsOf, type Charging } from "../../server/api/charging";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { appRouter } from "../../server/api/root";
import type { Meta } from "../../server/api/trpc";
import { AppError } from "../../server/errors";
import { KINDS } from "../../server/bulk/kinds";

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;

/** The kind of charging a procedure's meta implies. */
function kindOfMeta(meta: Meta | undefined, path: string): Charging["kind"] {
  if (meta?.metered) return "lookup";
  if (meta?.charges) return "job";
  return path === "monitors.run" ? "monitor-run" : "free";
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
      if (entry.kind === "job") expect(meta?.charges, path).toBe(entry.cost);
      if (!meta?.openapi) continue;
      const key = `${meta.openapi.method} ${meta.openapi.path.replace(/^\/?/, "/").replace(/\/$/, "") || "/"}`;
      const documented = [...costs].find(([k]) => k.replace(/\/$/, "") === key)?.[1];
      if (entry.kind === "lookup" || entry.kind === "job") {
        expect(documented, `${key} (${path})`).toBe(costOf(path));
        charged += 1;
      } else expect(documented, `${key} (${path})`).toBeUndefined();
    }
    expect(charged).toBeGreaterThan(25);
    expect(costOf("cidr.cidrCheck")).toMatch(/^2\^\(32-prefix\) units/);
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

  it("a bulk item costs what its procedure costs", () => {
    const samples: Record<string, string> = {
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
    for (const [kind, spec] of Object.entries(KINDS)) {
      const target = samples[kind];
      expect(target, `a sample target for the bulk kind ${kind}`).toBeDefined();
      const input = spec.input(target!);
      expect(input, kind).not.toHaveProperty("error");
      expect(chargingOf(spec.procedure)?.kind, `${kind}: ${spec.procedure}`).toBe("lookup");
      expect(spec.units(target!), kind).toBe(unitsOf(spec.procedure, input));
    }
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
