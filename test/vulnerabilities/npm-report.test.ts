import { describe, expect, it } from "vitest";
import { AppError } from "../../server/errors";
import { upstreamCallCounts } from "../../server/providers/packages/http";
import { getNpmReportOrThrow } from "../../server/vulnerabilities";
import { useFakePackageSources } from "./fake-sources";

const fake = useFakePackageSources();

async function expectAppError(p: Promise<unknown>, code: string, status: number) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).appCode).toBe(code);
  expect((err as AppError).status).toBe(status);
}

describe("npm package vulnerability report", () => {
  it("answers a scoped package with exactly the spec's fields, merging OSV and npm advisories by alias", async () => {
    const report = await getNpmReportOrThrow({ name: "@acme/widget" });
    const base = fake.current.baseUrl;
    expect(Object.keys(report).sort()).toEqual([
      "advisories",
      "checkedAt",
      "downloads",
      "noAdvisoryCopy",
      "package",
      "sources",
      "summary",
    ]);
    expect(report.package).toEqual({
      name: "@acme/widget",
      ecosystem: "npm",
      latestVersion: "2.0.0",
      description: "Widgets for the web",
      license: "MIT",
      repositoryUrl: "https://github.com/acme/widget",
    });
    expect(report.downloads).toEqual({ weeklyDownloads: 12345, start: "2024-06-01", end: "2024-06-07" });
    expect(report.summary).toEqual({
      total: 2,
      highest: "high",
      counts: { critical: 0, high: 1, moderate: 1, low: 0, unknown: 0 },
    });
    expect(report.advisories).toEqual([
      {
        id: "GHSA-35jh-r3h4-6jhm",
        aliases: ["CVE-2024-00001"],
        title: "Prototype pollution in @acme/widget",
        severity: "high",
        publishedAt: "2023-01-01T00:00:00Z",
        modifiedAt: "2024-05-01T00:00:00Z",
        affectedRanges: ["<1.0.1"],
        fixedVersions: ["1.0.1"],
        references: ["https://github.com/advisories/GHSA-35jh-r3h4-6jhm", "https://example.com/GHSA-35jh-r3h4-6jhm"],
      },
      {
        id: "GHSA-c2qf-rxjj-qqgw",
        aliases: [],
        title: "Regular expression denial of service in @acme/widget",
        severity: "moderate",
        publishedAt: null,
        modifiedAt: null,
        affectedRanges: ["<1.1.0"],
        fixedVersions: ["1.1.0"],
        references: ["https://github.com/advisories/GHSA-c2qf-rxjj-qqgw"],
      },
    ]);
    expect(report.sources).toEqual({
      npm: `${base}/npm/@acme%2Fwidget`,
      downloads: `${base}/downloads/downloads/point/last-week/@acme/widget`,
      osv: `${base}/osv/v1/querybatch`,
    });
    expect(Date.parse(report.checkedAt)).not.toBeNaN();
    expect(report.noAdvisoryCopy).toMatch(/not a security guarantee/);
  });

  it("lists all fifty advisories of a package, fetched from OSV across result pages", async () => {
    const report = await getNpmReportOrThrow({ name: "many-vulns" });
    expect(report.summary.total).toBe(50);
    expect(report.summary.counts).toEqual({ critical: 10, high: 10, moderate: 10, low: 10, unknown: 10 });
    expect(report.summary.highest).toBe("critical");
    expect(report.advisories[0].severity).toBe("critical");
    expect(report.advisories.at(-1)!.severity).toBe("unknown");
    expect(report.package.license).toBe("ISC");
    expect(report.package.repositoryUrl).toBe("https://github.com/example/many-vulns");
    // one querybatch page of 30 + one of 20, then one fetch per advisory
    expect(upstreamCallCounts().osv).toBe(52);
  });

  it("reuses cached upstream answers on a repeated lookup", async () => {
    await getNpmReportOrThrow({ name: "many-vulns" });
    const before = { ...fake.current.requests };
    const again = await getNpmReportOrThrow({ name: "many-vulns" });
    expect(again.summary.total).toBe(50);
    expect(fake.current.requests).toEqual(before);
  });

  it("reports zero downloads for a package the download service has never counted", async () => {
    const report = await getNpmReportOrThrow({ name: "no-downloads-yet" });
    expect(report.downloads.weeklyDownloads).toBe(0);
    expect(report.downloads.start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(report.summary).toEqual({
      total: 0,
      highest: "none",
      counts: { critical: 0, high: 0, moderate: 0, low: 0, unknown: 0 },
    });
    expect(report.package.description).toBe("");
  });

  it("gives 404 PACKAGE_NOT_FOUND for a missing or unpublished package", async () => {
    await expectAppError(getNpmReportOrThrow({ name: "does-not-exist" }), "PACKAGE_NOT_FOUND", 404);
    await expectAppError(getNpmReportOrThrow({ name: "gone-pkg" }), "PACKAGE_NOT_FOUND", 404);
  });

  it.each(["npm", "downloads", "osv"] as const)(
    "gives 503 UPSTREAM_UNAVAILABLE when the %s source is down",
    async (source) => {
      fake.current.down.add(source);
      await expectAppError(getNpmReportOrThrow({ name: "@acme/widget" }), "UPSTREAM_UNAVAILABLE", 503);
    },
  );

  it("still answers from OSV when only the registry's advisory endpoint fails", async () => {
    process.env.SERVICE_NPM_ADVISORY_URL = `${fake.current.baseUrl}/downloads`; // answers 404 for the bulk path
    try {
      const report = await getNpmReportOrThrow({ name: "@acme/widget" });
      expect(report.advisories.map((a) => a.id)).toEqual(["GHSA-35jh-r3h4-6jhm"]);
    } finally {
      delete process.env.SERVICE_NPM_ADVISORY_URL;
    }
  });

  it("gives 503 when a source does not answer within the timeout", async () => {
    process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "200";
    fake.current.hang.add("osv");
    await expectAppError(getNpmReportOrThrow({ name: "jquery" }), "UPSTREAM_UNAVAILABLE", 503);
  });

  it("does not cache a failure: the source is used again once it recovers", async () => {
    fake.current.down.add("npm");
    await expectAppError(getNpmReportOrThrow({ name: "jquery" }), "UPSTREAM_UNAVAILABLE", 503);
    fake.current.down.clear();
    const report = await getNpmReportOrThrow({ name: "jquery" });
    expect(report.package.name).toBe("jquery");
  });

  it("rejects a malformed package name with 400 INVALID_REQUEST", async () => {
    await expectAppError(getNpmReportOrThrow({ name: "../etc/passwd" }), "INVALID_REQUEST", 400);
  });
});
