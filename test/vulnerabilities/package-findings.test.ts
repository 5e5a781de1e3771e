// The package report carries the selected version's supply-chain findings and its verdict, as every scan line does
// (issue 25, items 3 to 5 and 7).
import { describe, expect, it } from "vitest";
import { getPackageReportOrThrow } from "../../server/vulnerabilities";
import { useFakePackageSources } from "./fake-sources";

useFakePackageSources();
const report = (coordinate: string, version?: string) =>
  getPackageReportOrThrow({ ecosystem: "npm", coordinate, version, limit: 100, offset: 0 });

describe("supply-chain findings and the verdict in the package report", () => {
  it("names the install script, the fresh release and the new publisher of a hijacked-looking release", async () => {
    const r = await report("fresh-thing", "2.0.0");
    expect(r.findings.map((f) => f.kind).sort()).toEqual(["fresh_release", "install_script", "new_publisher"]);
    expect(r.verdict.score).toBeGreaterThan(0);
    expect(r.verdict.reasons).toHaveLength(3);
    expect(r.verdict.reasons[0]).toMatch(/Published by mallory/);
  });

  it("judges an older release of the same package on its own facts", async () => {
    const r = await report("fresh-thing", "1.1.0");
    expect(r.findings).toEqual([]);
    expect(r.verdict).toEqual({ score: 0, level: "none", reasons: [] });
  });

  it("flags a typosquat with the downloads it has, and the malware of a malicious release first", async () => {
    const squat = await report("expresss");
    expect(squat.findings[0]).toMatchObject({ kind: "typosquat", evidence: { typosquat_of: "express" } });
    const malicious = await report("tinted-logs", "1.4.2");
    expect(malicious.verdict).toMatchObject({ score: 100, level: "critical" });
    expect(malicious.verdict.reasons[0]).toMatch(/malicious/);
  });

  it("weighs the advisories that affect the selected version, known-exploited ones as critical", async () => {
    const vulnerable = await report("jquery", "3.4.1");
    const fixed = await report("jquery", "3.7.1");
    expect(vulnerable.verdict.score).toBeGreaterThan(fixed.verdict.score);
    expect(vulnerable.verdict.reasons.some((r) => /CISA KEV/.test(r))).toBe(true);
  });
});
