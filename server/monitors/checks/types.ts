// What every check of a monitor is: the metered lookups it makes (each one unit, paid by the run's reservation)
// and how their answers become a small normalised state with a severity. A change is a comparison of two states,
// so a state holds only the facts that matter (an expiry bucket, not the days left that change every day).
import type { Db } from "../../db/client";
import type { MonitorTarget } from "../target";

export const CHECK_TYPES = [
  "tls",
  "scan",
  "blocklists",
  "ct",
  "dns",
  "email_security",
  "reachability",
  "packages",
  "project",
] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

/** ok: nothing to say; warning: needs attention soon; critical: broken now. */
export type Severity = "ok" | "warning" | "critical";

export type CheckState = Record<string, unknown>;

export interface CheckOptions {
  record_types?: string[];
  selectors?: string[];
  packages?: { ecosystem: string; name: string; version: string }[];
}

export interface Thresholds {
  tls_expiry_days: number[];
}

export interface CheckSpec {
  type: CheckType;
  /** What the check looks at, for the route description. */
  about: string;
  /** Needs a host name (not an IP address) as the target. */
  needsName: boolean;
  /** Looks at nothing of the target (packages): a monitor of such checks only may name its project instead. */
  targetFree?: true;
  /**
   * Reads what the calls need from the database before the run reserves its units (project: the project's latest
   * package list), and what they cost: the units the first admitted call carries. Without it, `calls` and one unit.
   * A problem thrown here (an AppError) is the check's error for the run, at no cost.
   */
  prepare?(db: Db, a: { workspaceId: string; target: string }): Promise<{ inputs: unknown[]; units: number }>;
  /**
   * Alerts finding by finding (./project.ts): the state is `{ findings: { [key]: finding } }`; each finding a run
   * has and the previous did not opens an alert, and the alert resolves on the first run without it.
   */
  perFinding?: true;
  /**
   * What this run's state keeps of the previous run's, before the two are compared and it is stored (project: the
   * supply-chain findings of a package whose registry did not answer this time stay as the previous run knew them).
   * Without it, the run's own state.
   */
  keep?(
    previous: { state: CheckState; severity: Severity } | undefined,
    current: { state: CheckState; severity: Severity },
  ): { state: CheckState; severity: Severity };
  /** The metered procedure (tRPC path) each call runs. */
  procedure: string;
  /** One input per call; each call is one lookup unit. */
  calls(target: MonitorTarget, options: CheckOptions): unknown[];
  /** The state and its severity from the answers, in the order of `calls`. */
  state(
    answers: any[],
    x: { thresholds: Thresholds; options: CheckOptions },
  ): { state: CheckState; severity: Severity };
}

export const worst = (...s: Severity[]): Severity =>
  s.includes("critical") ? "critical" : s.includes("warning") ? "warning" : "ok";

export const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
