// The scan's SARIF log as GitHub code scanning reads it: its upload documentation marks a rule's `fullDescription`
// and `help` as required besides `id` and `shortDescription`, and Microsoft's SARIF validator (`Sarif.Multitool
// validate --rule-kind Gh`) failed every rule of `service-scan --format sarif` with GH2012 for lacking both (found
// walking the CI command from a fresh clone). Every rule now has both, advisories and malware reports with their
// OSV page as helpUri, and the schema-level shape is unchanged (test/vulnerabilities/scan.test.ts validates it).
import { describe, expect, it } from "vitest";
import { scanToSarif } from "../../server/vulnerabilities/lockfile-scan/sarif";
import type { ScanReport } from "../../server/vulnerabilities/lockfile-scan/schemas";

const pkg = (over: Record<string, unknown>) => ({
  ecosystem: "npm",
  version: "1.0.0",
  line: 7,
  dev: false,
  verdict: { score: 90, level: "critical", reasons: [] },
  malware: false,
  malwareReports: [],
  advisories: [],
  kev: [],
  findings: [],
  fixedIn: null,
  registry: { status: "ok", reason: null, fetchedAt: null },
  typosquatCheck: { status: "ok", reason: null },
  ...over,
});

const report = {
  format: "package-lock",
  packages: [
    pkg({
      name: "tinted-logs",
      malware: true,
      malwareReports: [
        {
          id: "MAL-2026-0101",
          aliases: [],
          summary: "Malicious code in tinted-logs (npm)",
          publishedAt: null,
          modifiedAt: null,
          affectedRanges: ["1.0.0"],
        },
      ],
    }),
    pkg({
      name: "many-vulns",
      advisories: [
        {
          id: "GHSA-many-0010-vuln",
          aliases: ["CVE-2023-10010"],
          summary: "Prototype pollution in many-vulns",
          severity: "high",
          affected: true,
          fixedVersions: ["1.1.0"],
          nearestFixedVersion: "1.1.0",
          kev: false,
          epss: null,
          epssReason: "no source configured",
        },
      ],
      findings: [
        { kind: "install_script", severity: "moderate", reason: "runs node collect.js when installed", evidence: {} },
        { kind: "some_future_kind", severity: "low", reason: "a kind this renderer has no words for", evidence: {} },
      ],
    }),
  ],
} as unknown as ScanReport;

describe("the scan's SARIF log for GitHub code scanning", () => {
  const log = JSON.parse(scanToSarif(report, "package-lock.json"));
  const rules = log.runs[0].tool.driver.rules as Array<Record<string, any>>;

  it("gives every rule the id, short and full descriptions and help GitHub requires", () => {
    expect(rules.map((r) => r.id)).toEqual([
      "MAL-2026-0101",
      "GHSA-many-0010-vuln",
      "supply-chain/install_script",
      "supply-chain/some_future_kind",
    ]);
    for (const r of rules) {
      expect(r.shortDescription.text, r.id).toMatch(/\S/);
      expect(r.fullDescription.text, r.id).toMatch(/\S/);
      expect(r.help.text, r.id).toMatch(/\S/);
      expect(r.help.markdown, r.id).toMatch(/\S/);
    }
  });

  it("points advisories and malware reports at their OSV page and says what to do", () => {
    const [malware, advisory, script] = rules;
    expect(malware!.helpUri).toBe("https://osv.dev/vulnerability/MAL-2026-0101");
    expect(malware!.help.text).toMatch(/[Rr]emove/);
    expect(advisory!.helpUri).toBe("https://osv.dev/vulnerability/GHSA-many-0010-vuln");
    expect(advisory!.fullDescription.text).toContain("CVE-2023-10010");
    expect(advisory!.help.text).toMatch(/[Uu]pgrade/);
    expect(script!.fullDescription.text).toMatch(/install/);
    expect(script!.helpUri).toBeUndefined();
  });

  it("keeps every result's rule index pointing at its rule", () => {
    for (const r of log.runs[0].results) expect(rules[r.ruleIndex]!.id).toBe(r.ruleId);
  });
});
