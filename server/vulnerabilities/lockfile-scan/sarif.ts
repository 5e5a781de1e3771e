// A scan as a SARIF 2.1.0 log (`Accept: application/sarif+json`), the format code-scanning dashboards read: one rule
// per advisory, malware report and finding kind, one result per package and each of them, located at the lockfile
// line where the package first appears. Pure: it reads the scan's answer only, so any caller can render it.
import { FORMAT_FILE_NAMES, type LockfileFormat } from "../lockfiles/types";
import type { ScannedPackage, ScanReport } from "./schemas";

type Severity = ScannedPackage["advisories"][number]["severity"];
type Level = "error" | "warning" | "note";

const LEVEL: Record<Severity, Level> = {
  critical: "error",
  high: "error",
  moderate: "warning",
  low: "note",
  unknown: "warning",
};

// GitHub code scanning reads `security-severity` (a CVSS-like number) to label results critical/high/medium/low.
const SECURITY_SEVERITY: Record<Severity, string | null> = {
  critical: "9.5",
  high: "8.0",
  moderate: "5.5",
  low: "2.0",
  unknown: null,
};

/** The file a result points at when the caller names none: the format's usual file name (an SBOM's too). */
export const DEFAULT_FILE: Record<LockfileFormat, string> = {
  ...FORMAT_FILE_NAMES,
  cyclonedx: "bom.json",
  spdx: "sbom.spdx.json",
};

type Rule = {
  id: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: Level };
  properties: Record<string, unknown>;
};

/** What a rule says beyond its id: GitHub code scanning requires fullDescription and help on every rule. */
type RuleText = { short: string; full: string; help: string; helpUri?: string };

const osvPage = (id: string) => `https://osv.dev/vulnerability/${encodeURIComponent(id)}`;

/** Each supply-chain finding kind in words, for its rule's description (an unknown kind is named as it is). */
const FINDING_TEXT: Record<string, string> = {
  typosquat: "The package's name is close to a much more downloaded package's: it may imitate it.",
  install_script: "The version runs a script when it is installed (preinstall, install or postinstall).",
  fresh_release:
    "The version was published less than 72 hours ago, before the community had time to notice a bad release.",
  new_publisher: "The version was published by an account that published none of the package's earlier versions.",
  yanked: "The version was withdrawn (yanked) by its publisher.",
  deprecated: "The version is deprecated by its publisher.",
  unmaintained: "The package has had no release for two years.",
  repository_missing: "The package names no source repository.",
  repository_mismatch: "The package's repository link names another project.",
};

type Result = {
  ruleId: string;
  ruleIndex: number;
  level: Level;
  message: { text: string };
  locations: unknown[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
};

const label = (p: ScannedPackage) => `${p.name} ${p.version} (${p.ecosystem})`;

export function scanToSarif(report: ScanReport, file?: string | null): string {
  const uri = (file && file.trim()) || DEFAULT_FILE[report.format];
  const rules: Rule[] = [];
  const ruleIndex = new Map<string, number>();
  const rule = (id: string, text: RuleText, severity: Severity, tags: string[]): number => {
    const known = ruleIndex.get(id);
    if (known !== undefined) return known;
    const score = SECURITY_SEVERITY[severity];
    const helpLink = text.helpUri ? ` Details: ${text.helpUri}` : "";
    rules.push({
      id,
      shortDescription: { text: text.short || id },
      fullDescription: { text: text.full },
      help: {
        text: `${text.help}${helpLink}`,
        markdown: `${text.help}${text.helpUri ? ` Details: [${id}](${text.helpUri})` : ""}`,
      },
      ...(text.helpUri ? { helpUri: text.helpUri } : {}),
      defaultConfiguration: { level: LEVEL[severity] },
      properties: { tags: ["security", ...tags], ...(score ? { "security-severity": score } : {}) },
    });
    ruleIndex.set(id, rules.length - 1);
    return rules.length - 1;
  };
  const results: Result[] = [];
  const add = (p: ScannedPackage, ruleId: string, index: number, severity: Severity, text: string) => {
    results.push({
      ruleId,
      ruleIndex: index,
      level: LEVEL[severity],
      message: { text },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri, index: 0 },
            ...(p.line && p.line >= 1 ? { region: { startLine: p.line } } : {}),
          },
        },
      ],
      partialFingerprints: { "packageFinding/v1": `${p.ecosystem}:${p.name}@${p.version}:${ruleId}` },
      properties: {
        ecosystem: p.ecosystem,
        package: p.name,
        version: p.version,
        dev: p.dev,
        fixedIn: p.fixedIn,
        verdictScore: p.verdict.score,
      },
    });
  };
  for (const p of report.packages) {
    for (const m of p.malwareReports) {
      const names = [m.id, ...m.aliases].join(", ");
      const i = rule(
        m.id,
        {
          short: m.summary,
          full: `${m.summary || "A malicious package version"} (${names}): a report of malicious code in the package, from the OpenSSF Malicious Packages data set.`,
          help: "Remove the package version, and treat every machine that installed it as exposed (rotate the secrets it could read).",
          helpUri: osvPage(m.id),
        },
        "critical",
        ["malware"],
      );
      add(p, m.id, i, "critical", `${label(p)} is reported as malicious (${m.id}): ${m.summary}. Remove it.`);
    }
    for (const a of p.advisories) {
      const names = [a.id, ...a.aliases].join(", ");
      const i = rule(
        a.id,
        {
          short: a.summary,
          full: `${a.summary || "A security advisory"} (${names}), severity ${a.severity}.`,
          help: "Upgrade to a version that fixes it (each result names the nearest one for its package), or remove the package.",
          helpUri: osvPage(a.id),
        },
        a.severity,
        ["vulnerability", a.severity],
      );
      const fix = a.nearestFixedVersion ? ` Fixed in ${a.nearestFixedVersion}.` : " No fixed version is known.";
      const kev = a.kev ? " Known to be exploited (CISA KEV)." : "";
      add(p, a.id, i, a.severity, `${label(p)}: ${a.summary} [${a.severity}].${fix}${kev}`);
    }
    for (const f of p.findings) {
      const id = `supply-chain/${f.kind}`;
      const words = f.kind.replace(/_/g, " ");
      const i = rule(
        id,
        {
          short: `Supply-chain finding: ${words}`,
          full: FINDING_TEXT[f.kind] ?? `Supply-chain finding: ${words}.`,
          help: "A sign to review, not a known vulnerability: each result says what was found for its package.",
        },
        f.severity,
        ["supply-chain"],
      );
      add(p, id, i, f.severity, `${label(p)}: ${f.reason}`);
    }
  }
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "dependency-scan", semanticVersion: "1.0.0", rules } },
        artifacts: [{ location: { uri } }],
        results,
        properties: {
          format: report.format,
          summary: report.summary,
          sources: report.sources,
          checkedAt: report.checkedAt,
        },
      },
    ],
  };
  return JSON.stringify(log);
}
