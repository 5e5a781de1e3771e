import { describe, expect, it } from "vitest";
import { AppError } from "../../server/errors";
import { getPackageReportOrThrow } from "../../server/vulnerabilities";
import { useFakePackageSources } from "./fake-sources";

const fake = useFakePackageSources();
const page = { limit: 100, offset: 0 };

async function appErrorOf(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return { code: (err as AppError).appCode, status: (err as AppError).status };
}

describe("multi-ecosystem package report", () => {
  it("judges an exact npm version: affected by the npm-only advisory, fixed by 1.1.0, with sources named", async () => {
    const r = await getPackageReportOrThrow({
      ecosystem: "npm",
      coordinate: "@acme/widget",
      version: "1.0.1",
      ...page,
    });
    expect(r.version).toEqual({
      selected: "1.0.1",
      requested: "1.0.1",
      isLatest: false,
      publishedAt: "2019-01-31T00:00:00.000Z",
      affected: true,
    });
    expect(r.advisories.map((a) => [a.id, a.versionVerdict, a.sources])).toEqual([
      ["GHSA-c2qf-rxjj-qqgw", { affected: true, matchedRanges: ["<1.1.0"], nearestFixedVersion: "1.1.0" }, ["npm"]],
      ["GHSA-35jh-r3h4-6jhm", { affected: false, matchedRanges: [], nearestFixedVersion: null }, ["osv", "npm"]],
    ]);
    expect(r.summary.affectingSelectedVersion).toEqual({
      total: 1,
      highest: "moderate",
      counts: { critical: 0, high: 0, moderate: 1, low: 0, unknown: 0 },
    });
    expect(r.downloads).toEqual({ weeklyDownloads: 12345, start: "2024-06-01", end: "2024-06-07" });
    expect(r.sourceStatus.map((s) => [s.source, s.status])).toEqual([
      ["registry", "ok"],
      ["osv", "ok"],
      ["downloads", "ok"],
      ["npmAdvisories", "ok"],
      ["kev", "ok"],
    ]);
    expect(r.sources.registry).toBe(`${fake.current.baseUrl}/npm/@acme%2Fwidget`);
  });

  it("uses the latest version when none is asked for and matches the advisory's CVE in the KEV catalog", async () => {
    const r = await getPackageReportOrThrow({ ecosystem: "npm", coordinate: "jquery", version: "3.4.1", ...page });
    expect(r.version.affected).toBe(true);
    const xss = r.advisories.find((a) => a.id === "GHSA-jpcq-cgw6-v4j6")!;
    expect(xss.versionVerdict).toEqual({
      affected: true,
      matchedRanges: [">=1.0.3 <3.5.0"],
      nearestFixedVersion: "3.5.0",
    });
    expect(xss.knownExploited).toEqual([
      expect.objectContaining({ cveId: "CVE-2020-11023", vendorProject: "JQuery", dateAdded: "2025-01-23" }),
    ]);
    expect(r.knownExploited).toEqual([
      expect.objectContaining({ cveId: "CVE-2020-11023", advisoryIds: ["GHSA-jpcq-cgw6-v4j6"] }),
    ]);
    // the commit-range record lists 3.4.0 only; 3.4.1 is decided by its explicit versions list
    expect(r.advisories.find((a) => a.id === "OSV-2024-GIT")!.versionVerdict.affected).toBe(false);
    const latest = await getPackageReportOrThrow({ ecosystem: "npm", coordinate: "jquery", ...page });
    expect(latest.version).toMatchObject({ selected: "3.7.1", requested: null, isLatest: true, affected: false });
  });

  it("orders PyPI versions by PEP 440: 3.0.0rc1 is inside the second interval, 2.10.1 and 3.1.4 are not", async () => {
    const verdict = async (version: string) =>
      (await getPackageReportOrThrow({ ecosystem: "pypi", coordinate: "jinja2", version, ...page })).advisories[0]
        .versionVerdict;
    expect(await verdict("2.10")).toEqual({
      affected: true,
      matchedRanges: ["<2.10.1"],
      nearestFixedVersion: "2.10.1",
    });
    expect(await verdict("2.10.1")).toMatchObject({ affected: false });
    expect(await verdict("3.0.0rc1")).toEqual({
      affected: true,
      matchedRanges: [">=3.0.0rc1 <3.1.3"],
      nearestFixedVersion: "3.1.3",
    });
    expect(await verdict("3.1.4")).toMatchObject({ affected: false });
    const r = await getPackageReportOrThrow({ ecosystem: "pypi", coordinate: "jinja2", ...page });
    expect(r.package).toEqual({
      name: "Jinja2",
      ecosystem: "pypi",
      coordinate: "jinja2",
      latestVersion: "3.1.4",
      description: "A very fast and expressive template engine.",
      license: "BSD-3-Clause",
      repositoryUrl: "https://github.com/pallets/jinja/",
      versionCount: 7,
    });
    expect(r.advisories[0].severity).toBe("moderate"); // CVSS 3.1 base 5.4, no database label
    expect(r.downloads).toBeNull();
    expect(r.downloadsUnavailableReason).toBe("PyPI publishes no download counts.");
  });

  it("orders Maven versions by ComparableVersion: 2.0-rc1 is after 2.0-beta9 and so affected", async () => {
    const r = await getPackageReportOrThrow({
      ecosystem: "maven",
      coordinate: "org.apache.logging.log4j:log4j-core",
      version: "2.0-rc1",
      ...page,
    });
    expect(r.advisories[0]).toMatchObject({
      id: "GHSA-jfh8-c2jp-5v3q",
      severity: "critical",
      affectedRanges: [">=2.0-beta9 <2.3.1", ">=2.4 <2.12.2", ">=2.13.0 <2.15.0"],
      fixedVersions: ["2.3.1", "2.12.2", "2.15.0"],
      versionVerdict: { affected: true, matchedRanges: [">=2.0-beta9 <2.3.1"], nearestFixedVersion: "2.3.1" },
    });
    expect(r.package).toMatchObject({
      latestVersion: "2.17.1",
      description: "The Apache Log4j Implementation",
      license: "Apache License, Version 2.0",
      repositoryUrl: "https://github.com/apache/logging-log4j2",
    });
    const fixed = await getPackageReportOrThrow({
      ecosystem: "maven",
      coordinate: "org.apache.logging.log4j:log4j-core",
      version: "2.15.0",
      ...page,
    });
    expect(fixed.version.affected).toBe(false);
  });

  it("reads the Go proxy with v-prefixed versions and OSV's unprefixed bounds", async () => {
    const r = await getPackageReportOrThrow({
      ecosystem: "go",
      coordinate: "github.com/gin-gonic/gin",
      version: "v1.9.0",
      ...page,
    });
    expect(r.version).toEqual({
      selected: "v1.9.0",
      requested: "v1.9.0",
      isLatest: false,
      publishedAt: "2023-02-21T12:38:44Z",
      affected: true,
    });
    expect(r.advisories[0].versionVerdict).toEqual({
      affected: true,
      matchedRanges: ["<1.9.1"],
      nearestFixedVersion: "1.9.1",
    });
    expect(r.package).toMatchObject({
      latestVersion: "v1.10.0",
      repositoryUrl: "https://github.com/gin-gonic/gin",
      description: null,
      license: null,
    });
    const upper = await getPackageReportOrThrow({ ecosystem: "go", coordinate: "github.com/BurntSushi/toml", ...page });
    expect(upper.version.selected).toBe("v1.3.2");
  });

  it("expands Packagist's minified metadata and matches the Craft CMS advisory in the KEV catalog", async () => {
    const r = await getPackageReportOrThrow({
      ecosystem: "composer",
      coordinate: "craftcms/cms",
      version: "5.5.7",
      ...page,
    });
    expect(r.package).toMatchObject({
      name: "craftcms/cms",
      latestVersion: "5.5.8",
      description: "Craft CMS",
      license: "proprietary",
      versionCount: 4,
    });
    expect(r.advisories[0].versionVerdict).toEqual({
      affected: true,
      matchedRanges: [">=5.0.0-RC1 <5.5.8"],
      nearestFixedVersion: "5.5.8",
    });
    expect(r.knownExploited.map((k) => k.cveId)).toEqual(["CVE-2025-23209"]);
    const rc = await getPackageReportOrThrow({
      ecosystem: "composer",
      coordinate: "craftcms/cms",
      version: "5.0.0-RC1",
      ...page,
    });
    expect(rc.version.affected).toBe(true);
  });

  it("pages the advisory list and reports totals over all of it", async () => {
    const r = await getPackageReportOrThrow({
      ecosystem: "npm",
      coordinate: "many-vulns",
      version: "1.0.0",
      limit: 10,
      offset: 45,
    });
    expect(r.pagination).toEqual({ limit: 10, offset: 45, total: 50, hasMore: false });
    expect(r.advisories).toHaveLength(5);
    expect(r.summary.total).toBe(50);
    expect(r.summary.affectingSelectedVersion.total).toBe(1);
    const first = await getPackageReportOrThrow({
      ecosystem: "npm",
      coordinate: "many-vulns",
      version: "1.0.0",
      limit: 1,
      offset: 0,
    });
    expect(first.advisories[0].versionVerdict.affected).toBe(true);
    expect(first.pagination.hasMore).toBe(true);
  });

  it("gives 404 VERSION_NOT_FOUND for a version the registry does not list", async () => {
    expect(
      await appErrorOf(getPackageReportOrThrow({ ecosystem: "npm", coordinate: "jquery", version: "9.9.9", ...page })),
    ).toEqual({ code: "VERSION_NOT_FOUND", status: 404 });
    expect(
      await appErrorOf(
        getPackageReportOrThrow({ ecosystem: "go", coordinate: "github.com/gin-gonic/gin", version: "1.9.0", ...page }),
      ),
    ).toEqual({ code: "VERSION_NOT_FOUND", status: 404 });
  });

  it.each([
    ["npm", "nope-nope"],
    ["pypi", "nope-nope"],
    ["maven", "org.example:nope"],
    ["go", "github.com/example/nope"],
    ["composer", "example/nope"],
  ] as const)("gives 404 PACKAGE_NOT_FOUND for a missing %s package", async (ecosystem, coordinate) => {
    expect(await appErrorOf(getPackageReportOrThrow({ ecosystem, coordinate, ...page }))).toEqual({
      code: "PACKAGE_NOT_FOUND",
      status: 404,
    });
  });

  it.each([
    ["pypi", "jinja2", "pypi"],
    ["maven", "org.apache.logging.log4j:log4j-core", "maven"],
    ["go", "github.com/gin-gonic/gin", "go"],
    ["composer", "craftcms/cms", "packagist"],
    ["pypi", "jinja2", "osv"],
  ] as const)("gives 503 when the %s report's %s source (%s) is down", async (ecosystem, coordinate, source) => {
    fake.current.down.add(source);
    expect(await appErrorOf(getPackageReportOrThrow({ ecosystem, coordinate, ...page }))).toEqual({
      code: "UPSTREAM_UNAVAILABLE",
      status: 503,
    });
  });

  it.each([
    ["pypi", "jinja2", "pypi", "PyPI is unavailable"],
    ["composer", "craftcms/cms", "packagist", "Packagist is unavailable"],
    ["go", "github.com/gin-gonic/gin", "go", "The Go module proxy is unavailable"],
    ["maven", "org.apache.logging.log4j:log4j-core", "maven", "The Maven repository is unavailable"],
  ] as const)(
    "names the %s registry as a sentence says it when it is down",
    async (ecosystem, coordinate, source, words) => {
      // "The PyPI is unavailable" and "The Packagist is unavailable" were what a user read.
      fake.current.down.add(source);
      const err = await getPackageReportOrThrow({ ecosystem, coordinate, ...page }).catch((e: unknown) => e);
      expect((err as AppError).message.startsWith(words), (err as AppError).message).toBe(true);
    },
  );

  it("says a missing package is not in PyPI, and that the Go module proxy publishes no download counts", async () => {
    const missing = await getPackageReportOrThrow({ ecosystem: "pypi", coordinate: "nope-nope", ...page }).catch(
      (e: unknown) => e,
    );
    expect((missing as AppError).message).toBe('No pypi package "nope-nope" in PyPI.');
    const go = await getPackageReportOrThrow({ ecosystem: "go", coordinate: "github.com/gin-gonic/gin", ...page });
    expect(go.downloadsUnavailableReason).toBe("The Go module proxy publishes no download counts.");
  });

  it("answers npm with downloads null and a reason when only the download service is down", async () => {
    fake.current.down.add("downloads");
    const r = await getPackageReportOrThrow({ ecosystem: "npm", coordinate: "jquery", ...page });
    expect(r.downloads).toBeNull();
    expect(r.downloadsUnavailableReason).toMatch(/download-count service is unavailable \(answered HTTP 503\)/);
    expect(r.sourceStatus.find((s) => s.source === "downloads")).toMatchObject({
      status: "unavailable",
      reason: "answered HTTP 503",
    });
  });

  it("rejects a coordinate of the wrong shape for its ecosystem", async () => {
    expect(
      await appErrorOf(getPackageReportOrThrow({ ecosystem: "maven", coordinate: "log4j-core", ...page })),
    ).toEqual({ code: "INVALID_REQUEST", status: 400 });
    expect(
      await appErrorOf(getPackageReportOrThrow({ ecosystem: "composer", coordinate: "monolog", ...page })),
    ).toEqual({ code: "INVALID_REQUEST", status: 400 });
  });
});
