import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { AppError } from "../../server/errors";
import type { NpmBulkAdvisory } from "../../server/providers/packages/npm-registry";
import type { OsvVulnerability } from "../../server/providers/packages/osv-types";
import { advisoryFromNpm } from "../../server/vulnerabilities/advisories";
import { sortOsvRecords } from "../../server/vulnerabilities/report-common";
import { upstreamCallCounts } from "../../server/providers/packages/http";
import { getNpmReportOrThrow } from "../../server/vulnerabilities";
import { createTestApp } from "../harness";
import { useFakePackageSources } from "./fake-sources";

const fake = useFakePackageSources();

/** The registry's bulk advisory endpoint alone, answering the given advisories by package name. */
async function startBulkAdvisories(byName: Record<string, NpmBulkAdvisory[]>) {
  const asked: Array<[string, string[]]> = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, string[]>;
    asked.push(...Object.entries(body));
    const out = Object.fromEntries(Object.keys(body).flatMap((n) => (byName[n] ? [[n, byName[n]]] : [])));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

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
    // The spec's fields, plus `malware` (reports of malicious releases, kept apart from the advisories).
    expect(Object.keys(report).sort()).toEqual([
      "advisories",
      "checkedAt",
      "downloads",
      "malware",
      "noAdvisoryCopy",
      "package",
      "sources",
      "summary",
    ]);
    expect(report.malware).toEqual({ anyVersion: false, severity: null, reports: [] });
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

  it("keeps MAL- records apart in `malware` and leaves out withdrawn records", async () => {
    // The registry's bulk endpoint adds one advisory only it lists, which stays an advisory.
    const bulk = await startBulkAdvisories({
      "tinted-logs": [
        {
          id: 1100002,
          url: "https://github.com/advisories/GHSA-9c8f-mq2v-3g4h",
          title: "Listed by npm only",
          severity: "moderate",
          vulnerable_versions: "<1.4.3",
        },
      ],
    });
    process.env.SERVICE_NPM_ADVISORY_URL = bulk.url;
    try {
      const report = await getNpmReportOrThrow({ name: "tinted-logs" });
      // OSV: MAL-2026-0101 (malicious 1.4.2), MAL-2026-0007 and GHSA-wdrn-tint-0001 (withdrawn), GHSA-tint-redo-0002.
      expect(report.advisories.map((a) => a.id)).toEqual(["GHSA-9c8f-mq2v-3g4h", "GHSA-tint-redo-0002"]);
      expect(report.advisories.some((a) => [a.id, ...a.aliases].some((id) => id.startsWith("MAL-")))).toBe(false);
      expect(report.summary).toEqual({
        total: 2,
        highest: "moderate",
        counts: { critical: 0, high: 0, moderate: 1, low: 1, unknown: 0 },
      });
      expect(report.malware).toEqual({
        anyVersion: true,
        severity: "critical",
        reports: [
          {
            id: "MAL-2026-0101",
            aliases: [],
            title: "Malicious code in tinted-logs (npm)",
            publishedAt: expect.any(String),
            modifiedAt: expect.any(String),
            affectedRanges: ["=1.4.2"],
            references: expect.any(Array),
          },
        ],
      });
      expect(bulk.asked).toEqual([["tinted-logs", ["1.4.0", "1.4.1", "1.4.2", "1.4.3"]]]);
    } finally {
      delete process.env.SERVICE_NPM_ADVISORY_URL;
      await bulk.close();
    }
  });

  it("leaves out the registry's copy of a withdrawn or malware record (same GHSA id), not its other advisories", () => {
    const record = (id: string, over: Partial<OsvVulnerability> = {}): OsvVulnerability => ({
      id,
      modified: "2026-01-01T00:00:00Z",
      affected: [{ package: { ecosystem: "npm", name: "p" }, ranges: [] }],
      ...over,
    });
    const sorted = sortOsvRecords([
      record("GHSA-2345-6789-cfgh", { withdrawn: "2026-02-01T00:00:00Z" }),
      record("MAL-2026-0001", { aliases: ["GHSA-3456-789c-fghj"] }),
      record("GHSA-4567-89cf-ghjm"),
    ]);
    expect(sorted.vulnerabilities.map((v) => v.id)).toEqual(["GHSA-4567-89cf-ghjm"]);
    expect(sorted.malware.map((v) => v.id)).toEqual(["MAL-2026-0001"]);
    const npm = ["GHSA-2345-6789-cfgh", "GHSA-3456-789c-fghj", "GHSA-4567-89cf-ghjm", "GHSA-5678-9cfg-hjmp"].map(
      (ghsa, i) =>
        advisoryFromNpm(
          {
            id: i,
            url: `https://github.com/advisories/${ghsa}`,
            title: ghsa,
            severity: "high",
            vulnerable_versions: "*",
          },
          ["1.0.0"],
        ),
    );
    expect(sorted.fromRegistry(npm).map((a) => a.id)).toEqual(["GHSA-4567-89cf-ghjm", "GHSA-5678-9cfg-hjmp"]);
  });

  it("answers the malware field through the REST route, as the OpenAPI document describes it", async () => {
    process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "30000"; // a loaded machine's first REST request (see malware-report)
    const app = await createTestApp();
    const ws = await app.seedWorkspace();
    const res = await app.request("GET", "/v1/vulnerabilities/npm/tinted-logs/", { key: ws.apiKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.advisories.map((a: any) => a.id)).toEqual(["GHSA-tint-redo-0002"]);
    expect(res.body.malware.reports.map((m: any) => m.id)).toEqual(["MAL-2026-0101"]);
    const doc = (await app.request("GET", "/v1/openapi.json")).body;
    const op =
      doc.paths["/v1/vulnerabilities/npm/{package}/"]?.get ?? doc.paths["/vulnerabilities/npm/{package}/"]?.get;
    expect(op.description).toMatch(/MAL- records[^.]*are never among `advisories`/);
    expect(op.description).toMatch(/Withdrawn records, malware or not, are left out/);
    const schema = op.responses["200"].content["application/json"].schema;
    const body = schema.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema;
    expect(Object.keys(body.properties)).toContain("malware");
  });

  it("rejects a malformed package name with 400 INVALID_REQUEST", async () => {
    await expectAppError(getNpmReportOrThrow({ name: "../etc/passwd" }), "INVALID_REQUEST", 400);
  });
});
