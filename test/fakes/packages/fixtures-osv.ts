// OSV records, shaped like api.osv.dev's answers (trimmed).
import type { OsvVulnerability } from "../../../server/providers/packages/osv-types";

const ghsaRefs = (id: string) => [
  { type: "ADVISORY", url: `https://github.com/advisories/${id}` },
  { type: "WEB", url: `https://example.com/${id}` },
];

function pkgRecord(
  id: string,
  ecosystem: string,
  name: string,
  ranges: OsvVulnerability["affected"] extends Array<infer A> | undefined
    ? A extends { ranges?: infer R }
      ? R
      : never
    : never,
  opts: {
    aliases?: string[];
    severity?: string;
    summary?: string;
    vector?: string;
    published?: string;
    versions?: string[];
  } = {},
): OsvVulnerability {
  return {
    id,
    summary: opts.summary ?? `Vulnerability ${id} in ${name}`,
    details: `Details of ${id}.`,
    aliases: opts.aliases ?? [],
    modified: "2024-05-01T00:00:00Z",
    published: opts.published ?? "2023-01-01T00:00:00Z",
    severity: opts.vector
      ? [{ type: opts.vector.startsWith("CVSS:4") ? "CVSS_V4" : "CVSS_V3", score: opts.vector }]
      : undefined,
    affected: [
      { package: { ecosystem, name }, ranges, versions: opts.versions, database_specific: { source: "fixture" } },
    ],
    references: ghsaRefs(id),
    database_specific: opts.severity ? { severity: opts.severity, github_reviewed: true, cwe_ids: ["CWE-79"] } : {},
  };
}

const R = (type: string, ...events: Array<Record<string, string>>) => [{ type, events }];

const records: OsvVulnerability[] = [
  // tinted-logs: a report of a malicious release (OpenSSF Malicious Packages, MAL- ids), a withdrawn malware report,
  // a withdrawn advisory and one ordinary advisory.
  pkgRecord("MAL-2026-0101", "npm", "tinted-logs", [], {
    summary: "Malicious code in tinted-logs (npm)",
    versions: ["1.4.2"],
  }),
  {
    ...pkgRecord("MAL-2026-0007", "npm", "tinted-logs", [], { versions: ["1.4.0"] }),
    withdrawn: "2026-02-01T00:00:00Z",
  },
  {
    ...pkgRecord("GHSA-wdrn-tint-0001", "npm", "tinted-logs", R("SEMVER", { introduced: "0" }), { severity: "HIGH" }),
    withdrawn: "2026-03-01T00:00:00Z",
  },
  pkgRecord("GHSA-tint-redo-0002", "npm", "tinted-logs", R("SEMVER", { introduced: "0" }, { fixed: "1.4.1" }), {
    severity: "LOW",
    summary: "Log injection in tinted-logs",
  }),
  pkgRecord("GHSA-35jh-r3h4-6jhm", "npm", "@acme/widget", R("SEMVER", { introduced: "0" }, { fixed: "1.0.1" }), {
    aliases: ["CVE-2024-00001"],
    severity: "HIGH",
    summary: "Prototype pollution in @acme/widget",
  }),
  pkgRecord("GHSA-jpcq-cgw6-v4j6", "npm", "jquery", R("SEMVER", { introduced: "1.0.3" }, { fixed: "3.5.0" }), {
    aliases: ["CVE-2020-11023"],
    severity: "MODERATE",
    summary: "Potential XSS vulnerability in jQuery",
    published: "2020-04-29T22:18:55Z",
  }),
  // Django-style: two intervals, ECOSYSTEM ordering (PEP 440), a CVSS vector but no database label.
  pkgRecord(
    "PYSEC-2021-0001",
    "PyPI",
    "jinja2",
    [
      {
        type: "ECOSYSTEM",
        events: [{ introduced: "0" }, { fixed: "2.10.1" }, { introduced: "3.0.0rc1" }, { fixed: "3.1.3" }],
      },
    ],
    { aliases: ["CVE-2024-22195", "GHSA-h5c8-rqwp-cp95"], vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N" },
  ),
  pkgRecord(
    "GHSA-jfh8-c2jp-5v3q",
    "Maven",
    "org.apache.logging.log4j:log4j-core",
    R(
      "ECOSYSTEM",
      { introduced: "2.0-beta9" },
      { fixed: "2.3.1" },
      { introduced: "2.4" },
      { fixed: "2.12.2" },
      { introduced: "2.13.0" },
      { fixed: "2.15.0" },
    ),
    { aliases: ["CVE-2021-44228"], severity: "CRITICAL", summary: "Remote code injection in Log4j" },
  ),
  pkgRecord("GO-2023-1737", "Go", "github.com/gin-gonic/gin", R("SEMVER", { introduced: "0" }, { fixed: "1.9.1" }), {
    aliases: ["CVE-2023-29401", "GHSA-2c4m-59x9-fr2g"],
    summary: "Improper handling of filenames in Content-Disposition HTTP header in github.com/gin-gonic/gin",
  }),
  pkgRecord(
    "GHSA-x684-96hh-833x",
    "Packagist",
    "craftcms/cms",
    R("ECOSYSTEM", { introduced: "5.0.0-RC1" }, { fixed: "5.5.8" }, { introduced: "4.0.0-RC1" }, { fixed: "4.13.8" }),
    {
      aliases: ["CVE-2025-23209"],
      severity: "HIGH",
      summary: "Craft CMS has a potential RCE with a compromised security key",
    },
  ),
  // Only a GIT range and an explicit versions list, as OSV's CVE-converted records have.
  pkgRecord(
    "OSV-2024-GIT",
    "npm",
    "jquery",
    [
      {
        type: "GIT",
        repo: "https://github.com/jquery/jquery",
        events: [{ introduced: "abc123" }, { fixed: "def456" }],
      },
    ],
    {
      versions: ["3.4.0"],
      vector: "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N",
      summary: "Commit-range advisory",
    },
  ),
];

// A CVE record that aliases the GitHub advisory, as OSV serves CVE ids.
records.push({
  id: "CVE-2020-11023",
  modified: "2024-06-01T00:00:00Z",
  published: "2020-04-29T21:15:00Z",
  aliases: ["GHSA-jpcq-cgw6-v4j6"],
  details:
    "In jQuery versions greater than or equal to 1.0.3 and before 3.5.0, passing HTML containing <option> elements from untrusted sources...",
  affected: [
    {
      ranges: [
        {
          type: "GIT",
          repo: "https://github.com/jquery/jquery",
          events: [{ introduced: "0" }, { fixed: "1d61fd9407e6fbe82fe55cb0b938307aa0791f77" }],
        },
      ],
    },
  ],
  references: [{ type: "WEB", url: "https://blog.jquery.com/2020/04/10/jquery-3-5-0-released/" }],
  severity: [{ type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:C/C:L/I:L/A:N" }],
});

const manySeverities = ["CRITICAL", "HIGH", "MODERATE", "LOW", undefined];
for (let i = 0; i < 50; i++) {
  records.push(
    pkgRecord(
      `GHSA-many-${String(i).padStart(4, "0")}-vuln`,
      "npm",
      "many-vulns",
      R("SEMVER", { introduced: `1.${i}.0` }, { fixed: `1.${i + 1}.0` }),
      {
        aliases: [`CVE-2023-${String(10000 + i)}`],
        severity: manySeverities[i % manySeverities.length],
        published: new Date(Date.UTC(2023, 0, 1 + i)).toISOString(),
      },
    ),
  );
}

export const OSV_RECORDS: Map<string, OsvVulnerability> = new Map(records.map((r) => [r.id, r]));

/** Records listed for one package (what querybatch/query match). */
export function osvRecordsFor(ecosystem: string, name: string): OsvVulnerability[] {
  return records.filter((r) => r.affected?.some((a) => a.package?.ecosystem === ecosystem && a.package.name === name));
}

/**
 * Publishes an advisory while the fake runs (a monitor test's "OSV gains an advisory"): `npm` `name` versions from
 * `introduced` on, HIGH. Returns the withdrawal, to be called when the test ends.
 */
export function publishOsvAdvisory(id: string, name: string, introduced: string): () => void {
  const rec = pkgRecord(id, "npm", name, R("SEMVER", { introduced }), {
    severity: "HIGH",
    published: "2026-11-05T00:00:00Z",
  });
  records.push(rec);
  OSV_RECORDS.set(id, rec);
  return () => {
    records.splice(records.indexOf(rec), 1);
    OSV_RECORDS.delete(id);
  };
}
