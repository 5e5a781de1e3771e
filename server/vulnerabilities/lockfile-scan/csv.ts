// A scan as CSV (`Accept: text/csv`): a header row, then one row per package and each advisory, malware report or
// supply-chain finding of it (a package with none gets one row of kind `none`, so every scanned version is listed).
// RFC 4180 with CRLF line ends; cells a spreadsheet would read as a formula are prefixed with an apostrophe.
import { csvCell } from "../../events/csv";
import type { ScannedPackage, ScanReport } from "./schemas";

export const SCAN_CSV_COLUMNS = [
  "ecosystem",
  "name",
  "version",
  "line",
  "dev",
  "kind",
  "id",
  "severity",
  "summary",
  "fixed_in",
  "upgrade_to",
  "kev",
  "epss",
  "epss_percentile",
  "verdict_score",
  "verdict_level",
] as const;

type Row = {
  kind: string;
  id: string;
  severity: string;
  summary: string;
  fixedIn?: string | null;
  kev?: boolean;
  epss?: ScannedPackage["advisories"][number]["epss"];
};

function rowsOf(p: ScannedPackage): Row[] {
  const rows: Row[] = [
    ...p.malwareReports.map((m) => ({ kind: "malware", id: m.id, severity: "critical", summary: m.summary })),
    ...p.advisories.map((a) => ({
      kind: "advisory",
      id: a.id,
      severity: a.severity,
      summary: a.summary,
      fixedIn: a.nearestFixedVersion,
      kev: a.kev,
      epss: a.epss,
    })),
    ...p.findings.map((f) => ({ kind: f.kind, id: "", severity: f.severity, summary: f.reason })),
  ];
  return rows.length ? rows : [{ kind: "none", id: "", severity: "", summary: "" }];
}

const text = (v: string | number | boolean | null | undefined): string | null =>
  v === null || v === undefined ? null : String(v);

export function scanToCsv(report: ScanReport): string {
  const lines = [SCAN_CSV_COLUMNS.join(",")];
  for (const p of report.packages) {
    for (const r of rowsOf(p)) {
      lines.push(
        [
          p.ecosystem,
          p.name,
          p.version,
          text(p.line),
          text(p.dev),
          r.kind,
          r.id,
          r.severity,
          r.summary,
          r.fixedIn,
          r.kind === "advisory" ? p.fixedIn : null,
          text(r.kev),
          text(r.epss?.epss),
          text(r.epss?.percentile),
          text(p.verdict.score),
          p.verdict.level,
        ]
          .map((v) => csvCell(v ?? null))
          .join(","),
      );
    }
  }
  return `${lines.join("\r\n")}\r\n`;
}
