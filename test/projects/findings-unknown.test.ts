// A supply-chain finding that one of two scans could not compute is unknown, not new or fixed
// (server/projects/findings.ts): a package whose registry was unavailable carries all of its supply-chain findings,
// and a package whose typosquat check alone could not be done carries its typosquat finding only. Its advisories and
// malware reports (OSV) and its other supply-chain kinds still count.
import { describe, expect, it } from "vitest";
import { diffReports, packagesWithoutSupplyChain, type Finding } from "../../server/projects/findings";
import type { ScanReport } from "../../server/vulnerabilities/lockfile-scan/schemas";

type Pkg = ScanReport["packages"][number];

/** A scanned package with only the fields the findings read. */
function pkg(
  name: string,
  o: {
    findings?: { kind: string; severity?: string; reason?: string }[];
    advisories?: string[];
    registry?: "ok" | "unavailable";
    typosquat?: "ok" | "unavailable";
  } = {},
): Pkg {
  return {
    ecosystem: "npm",
    name,
    version: "1.0.0",
    malwareReports: [],
    advisories: (o.advisories ?? []).map((id) => ({ id, severity: "high", summary: id, nearestFixedVersion: "1.0.1" })),
    findings: (o.findings ?? []).map((f) => ({ severity: "high", reason: f.kind, ...f })),
    registry: { status: o.registry ?? "ok" },
    typosquatCheck: { status: o.typosquat ?? "ok", reason: null },
  } as unknown as Pkg;
}

const report = (...packages: Pkg[]) => ({ packages });
const keys = (fs: Finding[]) => fs.map((f) => `${f.name} ${f.kind}${f.id ? ` ${f.id}` : ""}`).sort();

// The function a project scan's `diff` is made with (server/projects/store.ts).
const diff = diffReports;

describe("a typosquat check that could not be done", () => {
  const base = report(
    pkg("lodahs", {
      findings: [{ kind: "typosquat" }, { kind: "install_script" }],
      advisories: ["GHSA-aaaa"],
    }),
  );

  it("names the package and the kind, not the whole package", () => {
    const current = report(pkg("lodahs", { typosquat: "unavailable" }));
    expect([...packagesWithoutSupplyChain(current)]).toEqual(["npm:lodahs typosquat"]);
  });

  it("carries the typosquat finding as unchanged, while the install script and the advisory that went are fixed", () => {
    const current = report(pkg("lodahs", { typosquat: "unavailable" }));
    const d = diff(base, current);
    expect(keys(d.fixed)).toEqual(["lodahs advisory GHSA-aaaa", "lodahs install_script"]);
    expect(d.new).toEqual([]);
    expect(d.unchanged).toBe(1);
  });

  it("does not make a typosquat finding new when the base's check could not be done", () => {
    const before = report(pkg("reactt", { typosquat: "unavailable" }));
    const after = report(pkg("reactt", { findings: [{ kind: "typosquat" }, { kind: "install_script" }] }));
    const d = diff(before, after);
    expect(keys(d.new)).toEqual(["reactt install_script"]);
    expect(d.unchanged).toBe(1);
  });

  it("counts the typosquat finding as fixed once both checks were done", () => {
    const d = diff(base, report(pkg("lodahs", { findings: [{ kind: "install_script" }], advisories: ["GHSA-aaaa"] })));
    expect(keys(d.fixed)).toEqual(["lodahs typosquat"]);
    expect(d.unchanged).toBe(2);
  });
});

describe("a registry that was unavailable for a package", () => {
  it("carries every supply-chain finding of that package, and its advisories still count", () => {
    const base = report(
      pkg("left-pad", { findings: [{ kind: "typosquat" }, { kind: "install_script" }], advisories: ["GHSA-bbbb"] }),
    );
    const current = report(pkg("left-pad", { registry: "unavailable" }));
    expect([...packagesWithoutSupplyChain(current)]).toEqual(["npm:left-pad"]);
    const d = diff(base, current);
    expect(keys(d.fixed)).toEqual(["left-pad advisory GHSA-bbbb"]);
    expect(d.unchanged).toBe(2);
  });
});
