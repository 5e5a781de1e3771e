// The parts of POST /v1/vulnerabilities/scan's answer the command reads. The command installs alone (its tarball holds
// nothing of the repository), so it keeps its own copy of these few types instead of importing the generated client;
// test/cli/service-scan.test.ts checks at compile time that the generated schema's summary still fits this one.

export type Severity = "critical" | "high" | "moderate" | "low" | "unknown";

export interface ScanSummary {
  packages: number;
  vulnerable: number;
  malware: number;
  bySeverity: Record<Severity, number>;
  byFinding: Record<string, number>;
  upgrades: Array<{
    ecosystem: string;
    name: string;
    from: string;
    to: string | null;
    malware: boolean;
    fixes: string[];
    maxSeverity: Severity;
  }>;
}

/** The scan a project's scan was compared with: the latest of the base ref. */
export interface DiffBase {
  scan_id: string;
  ref: string;
  created_at: string;
}

/** `diff` of a scan sent with `project`: what it adds and fixes against its base (null for a project's first scan). */
export interface ScanDiff {
  base: DiffBase | null;
  /** Findings shaped like the answer's own (see diff.ts for how each is read). */
  new: unknown[];
  fixed: unknown[];
  unchanged: number;
}

/** `project` of a scan sent with `project`: where the answer is kept (GET /projects/{name}/scans/{scan_id}). */
export interface KeptScan {
  name: string;
  ref: string;
  scan_id: string;
  expires_at: string;
}

/** One source a scan used, and whether it answered (`unavailable` or `partial`: some evidence is missing). */
export interface ScanSource {
  source: string;
  status: string;
  reason?: string | null;
}

export interface ScanAnswer {
  format: string;
  summary: ScanSummary;
  /** The sources the scan used (older services may not send them in a SARIF log). */
  sources?: ScanSource[];
  diff?: ScanDiff;
  project?: KeptScan;
}
