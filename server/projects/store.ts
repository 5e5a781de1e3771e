// Projects' stored scans: written by POST /vulnerabilities/scan?project= (the answer already paid for, with its diff
// against the base and the lockfile's package list), read by /projects..., deleted by DELETE /projects/{name} and by
// the retention purge once past the workspace's history window (expiresAt; reads hide them from then on). Every query
// filters on the workspace: another workspace's project is not found.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError, unknownCursorError } from "../errors";
import { sortableId } from "../ids";
import type { ScanReport } from "../vulnerabilities/lockfile-scan/schemas";
import type { Ecosystem } from "../vulnerabilities/versions";
import { newBreaches, type FailOn } from "../../clients/cli/src/policy-rule";
import { diffOfReports, findingsOf, type Finding } from "./findings";
import { DEFAULT_REF } from "./names";
import type { ProjectScanAnswer, ProjectScanSummary, ScanCounts, ScanPolicy } from "./schemas";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const DAY = 86_400_000;

export type StoredPackage = { ecosystem: Ecosystem; name: string; version: string };
type Base = { scan_id: string; ref: string; created_at: string } | null;
type StoredSummary = ScanCounts & { base: Base; policy?: ScanPolicy | null };

const SUMMARY_COLUMNS = {
  id: true,
  project: true,
  ref: true,
  format: true,
  createdAt: true,
  expiresAt: true,
  summary: true,
} as const;
type SummaryRow = {
  id: string;
  project: string;
  ref: string;
  format: string;
  createdAt: Date;
  expiresAt: Date;
  summary: unknown;
};

export function toScanSummary(r: SummaryRow): ProjectScanSummary {
  const { base, policy, ...counts } = r.summary as StoredSummary;
  return {
    id: r.id,
    project: r.project,
    ref: r.ref,
    format: r.format,
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    base: base ?? null,
    policy: policy ?? null,
    summary: counts,
  };
}

const notFound = (name: string) =>
  new AppError(
    "NOT_FOUND",
    `No project ${name} in this workspace (its scans may have expired with the history window).`,
  );

const live = (workspaceId: string, now: Date) => ({ workspaceId, expiresAt: { gt: now } });

/**
 * The latest live scan of one ref of a project, or null; with `path`, the latest of that file when the ref has one. A
 * repository may scan several lockfiles into one project (the CLI names each by its path from the repository root):
 * each is compared with its own file's last scan, never with another file's or with a newer scan that names no path
 * (the dashboard's, which may be of any file). Only a path the ref has no scan of (a lockfile moved or added) and a
 * scan that names no path take the ref's latest scan, whatever its file, as before paths were compared.
 */
async function latestOfRef(db: Db, workspaceId: string, project: string, ref: string, now: Date, path?: string) {
  const latest = (where: object) =>
    db.projectScan.findFirst({
      where: { ...live(workspaceId, now), project, ref, ...where },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  return (path ? await latest({ path }) : null) ?? (await latest({}));
}

/** Whether a stored scan was judged on its new findings (`fail_on_new`) and failed. */
const failedItsPolicy = (row: { summary: unknown }) => (row.summary as StoredSummary).policy?.passed === false;

/**
 * The scan a new one is compared with: the base ref's latest (latestOfRef), unless that one failed its policy on what
 * it added. Its new findings were refused, not accepted, so taking it as the base would pass a re-run of the same job
 * (the failing findings no longer new): the base is then the one that scan was compared with, itself never a failed
 * one since it was chosen by this same rule. One expired or deleted since leaves no base: everything is new again.
 */
async function baseOf(db: Db, workspaceId: string, project: string, ref: string, now: Date, path?: string) {
  const latest = await latestOfRef(db, workspaceId, project, ref, now, path);
  if (!latest || !failedItsPolicy(latest)) return latest;
  if (!latest.baseScanId) return null;
  return db.projectScan.findFirst({ where: { ...live(workspaceId, now), id: latest.baseScanId } });
}

/**
 * Keeps a project's scan for the workspace's history window (at least a day, as bulk jobs are kept) and answers it
 * with its diff against the base: the latest scan of the default ref, or of `baseRef`, that did not fail its policy
 * on what it added. With `failOnNew`, the scan's new findings are judged by that policy (the CLI's --fail-on-new);
 * the verdict is kept with the scan and answered in `project.policy`.
 */
export async function recordProjectScan(
  db: Db,
  a: {
    workspaceId: string;
    project: string;
    ref: string;
    baseRef?: string;
    historyDays: number;
    report: ScanReport;
    path?: string;
    failOnNew?: FailOn;
    now?: Date;
  },
): Promise<ProjectScanAnswer> {
  const now = a.now ?? new Date();
  const base = await baseOf(db, a.workspaceId, a.project, a.baseRef ?? DEFAULT_REF, now, a.path);
  const baseReport = base ? (base.report as ScanReport) : null;
  // The scan's findings, built once for its diff and the count kept in its summary.
  const { diff: changes, findings } = diffOfReports(baseReport, a.report);
  const diff = {
    base: base ? { scan_id: base.id, ref: base.ref, created_at: base.createdAt.toISOString() } : null,
    ...changes,
  };
  const id = sortableId("psc");
  const expiresAt = new Date(now.getTime() + Math.max(1, a.historyDays) * DAY);
  const breaches = a.failOnNew ? newBreaches(diff.new, a.failOnNew) : [];
  const policy: ScanPolicy | null = a.failOnNew
    ? { fail_on_new: a.failOnNew, passed: breaches.length === 0, breaches }
    : null;
  const answer: ProjectScanAnswer = {
    ...a.report,
    diff,
    project: {
      name: a.project,
      ref: a.ref,
      scan_id: id,
      expires_at: expiresAt.toISOString(),
      ...(policy ? { policy } : {}),
    },
  };
  const summary: StoredSummary = {
    packages: a.report.summary.packages,
    vulnerable: a.report.summary.vulnerable,
    malware: a.report.summary.malware,
    findings: findings.length,
    new: diff.new.length,
    fixed: diff.fixed.length,
    unchanged: diff.unchanged,
    base: diff.base,
    policy,
  };
  const packages: StoredPackage[] = a.report.packages.map((p) => ({
    ecosystem: p.ecosystem,
    name: p.name,
    version: p.version,
  }));
  await db.projectScan.create({
    data: {
      id,
      workspaceId: a.workspaceId,
      project: a.project,
      ref: a.ref,
      baseScanId: base?.id ?? null,
      format: a.report.format,
      path: a.path ?? null,
      packages: packages as object,
      report: answer as object,
      summary: summary as object,
      createdAt: now,
      expiresAt,
    },
  });
  return answer;
}

/**
 * Projects by name; `cursor` is the previous page's `next_cursor` (the last name shown). A cursor that names no project
 * of this workspace is 400, as on every list (server/pages.ts), never an empty last page a client would take for the
 * end; the cursor's project holds its place while any of its scans is stored, past its window too.
 */
export async function listProjects(
  db: Db,
  workspaceId: string,
  page: { limit: number; cursor?: string },
  now = new Date(),
) {
  if (page.cursor) {
    const place = await db.projectScan.findFirst({
      where: { workspaceId, project: page.cursor },
      select: { id: true },
    });
    if (!place) throw unknownCursorError("next_cursor");
  }
  const groups = await db.projectScan.groupBy({
    by: ["project"],
    where: { ...live(workspaceId, now), ...(page.cursor ? { project: { gt: page.cursor } } : {}) },
    _count: { _all: true },
    orderBy: { project: "asc" },
    take: page.limit + 1,
  });
  const shown = groups.slice(0, page.limit);
  const latest = await db.projectScan.findMany({
    where: { ...live(workspaceId, now), project: { in: shown.map((g) => g.project) } },
    distinct: ["project"],
    orderBy: [{ project: "asc" }, { createdAt: "desc" }, { id: "desc" }],
    select: SUMMARY_COLUMNS,
  });
  const byName = new Map(latest.map((r) => [r.project, r]));
  return {
    items: shown
      .filter((g) => byName.has(g.project))
      .map((g) => ({ name: g.project, scans: g._count._all, latest_scan: toScanSummary(byName.get(g.project)!) })),
    next_cursor: groups.length > page.limit ? shown[shown.length - 1]!.project : null,
  };
}

/** The project monitor of a project, if one watches it. */
export async function projectMonitorOf(db: Db, workspaceId: string, name: string) {
  const rows = await db.monitor.findMany({
    where: { workspaceId, target: name },
    select: { id: true, interval: true, status: true, checks: true },
    orderBy: { id: "asc" },
  });
  const m = rows.find((r) => (r.checks as { type: string }[]).some((c) => c.type === "project"));
  return m ? { id: m.id, interval: m.interval, status: m.status } : null;
}

/** A project with its refs (the latest scan of each) and the open findings; 404 for none in this workspace. */
export async function getProjectOrThrow(db: Db, workspaceId: string, name: string, now = new Date()) {
  const refs = await db.projectScan.groupBy({
    by: ["ref"],
    where: { ...live(workspaceId, now), project: name },
    _count: { _all: true },
  });
  if (refs.length === 0) throw notFound(name);
  const latest = await db.projectScan.findMany({
    where: { ...live(workspaceId, now), project: name },
    distinct: ["ref"],
    orderBy: [{ ref: "asc" }, { createdAt: "desc" }, { id: "desc" }],
    select: SUMMARY_COLUMNS,
  });
  const counts = new Map(refs.map((r) => [r.ref, r._count._all]));
  const refViews = latest
    .map((r) => ({ ref: r.ref, scans: counts.get(r.ref) ?? 0, latest_scan: toScanSummary(r) }))
    .sort(
      (a, b) =>
        Number(b.ref === DEFAULT_REF) - Number(a.ref === DEFAULT_REF) ||
        b.latest_scan.created_at.localeCompare(a.latest_scan.created_at),
    );
  const open = await openFindingsOf(db, workspaceId, refViews[0]!.latest_scan.id);
  return {
    name,
    scans: refs.reduce((n, r) => n + r._count._all, 0),
    refs: refViews,
    open_findings: open,
    monitor: await projectMonitorOf(db, workspaceId, name),
  };
}

async function openFindingsOf(db: Db, workspaceId: string, scanId: string): Promise<Finding[]> {
  const row = await db.projectScan.findFirst({ where: { id: scanId, workspaceId }, select: { report: true } });
  return row ? findingsOf(row.report as ScanReport) : [];
}

/**
 * A project's scans, newest first (their sortable ids), of one ref or all; `cursor` is the previous page's
 * `next_cursor`, the last scan id shown, and the next page is the scans created before it. A project with no live scan
 * here is 404 whatever the query; a cursor that names no scan of the project is 400 (server/pages.ts), never an empty
 * last page a client would take for the end. The cursor's scan holds its place while stored, past its window too.
 */
export async function listProjectScansOrThrow(
  db: Db,
  workspaceId: string,
  name: string,
  page: { limit: number; cursor?: string; ref?: string },
  now = new Date(),
) {
  const [rows, place] = await Promise.all([
    db.projectScan.findMany({
      where: {
        ...live(workspaceId, now),
        project: name,
        ...(page.ref ? { ref: page.ref } : {}),
        ...(page.cursor ? { id: { lt: page.cursor } } : {}),
      },
      orderBy: { id: "desc" },
      take: page.limit + 1,
      select: SUMMARY_COLUMNS,
    }),
    page.cursor
      ? db.projectScan.findFirst({ where: { id: page.cursor, workspaceId, project: name }, select: { id: true } })
      : null,
  ]);
  const unknownCursor = Boolean(page.cursor) && place === null;
  if (rows.length === 0 || unknownCursor) {
    const any = await db.projectScan.count({ where: { ...live(workspaceId, now), project: name } });
    if (any === 0) throw notFound(name);
  }
  if (unknownCursor) throw unknownCursorError("next_cursor");
  const shown = rows.slice(0, page.limit);
  return {
    items: shown.map(toScanSummary),
    next_cursor: rows.length > page.limit ? shown[shown.length - 1]!.id : null,
  };
}

/** One stored scan of the project, its answer as it was given; 404 for any other. */
export async function getProjectScanOrThrow(db: Db, workspaceId: string, name: string, id: string, now = new Date()) {
  const row = await db.projectScan.findFirst({ where: { ...live(workspaceId, now), project: name, id } });
  if (!row) throw new AppError("NOT_FOUND", `No scan ${id} of project ${name} in this workspace.`);
  return { answer: withTyposquatCheck(row.report as ProjectScanAnswer), path: row.path ?? undefined };
}

/** Kept before each package's typosquat check said how it went: the answer says that it was not recorded. */
const NOT_RECORDED = {
  status: "unavailable",
  reason: "not recorded: this scan was kept before the typosquat check's status was",
} as const;

function withTyposquatCheck(answer: ProjectScanAnswer): ProjectScanAnswer {
  if (answer.packages.every((p) => p.typosquatCheck)) return answer;
  return {
    ...answer,
    packages: answer.packages.map((p) => ({ ...p, typosquatCheck: p.typosquatCheck ?? NOT_RECORDED })),
  };
}

/** The package list of the project's latest default-ref scan (what its monitor re-evaluates), or null for none. */
export async function latestDefaultPackages(db: Db, workspaceId: string, name: string, now = new Date()) {
  const row = await db.projectScan.findFirst({
    where: { ...live(workspaceId, now), project: name, ref: DEFAULT_REF },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, packages: true },
  });
  return row ? { scanId: row.id, packages: row.packages as StoredPackage[] } : null;
}

/**
 * Holds the project's latest live default-ref scan (FOR SHARE) for the caller's transaction and answers its id, or null
 * when there is none. A project monitor's creation holds it from its check to its commit: a deletion of the project
 * (deleteProjectScansOrThrow, whose deleteMany waits for the hold) then finds the new monitor and deletes it with the
 * project, and one that committed first leaves no row to hold, so the creation is refused (server/monitors/monitors.ts).
 */
export async function holdLatestDefaultScan(tx: Tx, workspaceId: string, name: string, now = new Date()) {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT "id" FROM "ProjectScan" WHERE "workspaceId" = $1 AND "project" = $2 AND "ref" = $3 AND "expiresAt" > $4
     ORDER BY "createdAt" DESC, "id" DESC LIMIT 1 FOR SHARE`,
    workspaceId,
    name,
    DEFAULT_REF,
    now,
  );
  return rows[0]?.id ?? null;
}

/**
 * Deletes every scan of the project, with its audit event (`audit.project.deleted`), inside the caller's transaction
 * (monitors/project-deletion.ts deletes the monitors that watch it in the same one); 404 when it has no live scan here, as every read
 * answers (scans past the history window are hidden, and the purge deletes them).
 */
export async function deleteProjectScansOrThrow(
  tx: Tx,
  a: { workspaceId: string; name: string; actor: Actor; requestId: string; now?: Date },
) {
  const shown = await tx.projectScan.count({
    where: { ...live(a.workspaceId, a.now ?? new Date()), project: a.name },
  });
  if (shown === 0) throw notFound(a.name);
  const { count } = await tx.projectScan.deleteMany({ where: { workspaceId: a.workspaceId, project: a.name } });
  await recordAudit(tx as unknown as Db, {
    workspaceId: a.workspaceId,
    type: "audit.project.deleted",
    actor: a.actor,
    target: { kind: "project", id: a.name, label: a.name },
    before: { scans: count },
    after: null,
    requestId: a.requestId,
  });
  return { name: a.name, deleted: true as const, scans: count };
}

/** Retention: scans past their history window, after the grace period the purge gives every expired row. */
export async function purgeExpiredProjectScans(db: Db, before: Date): Promise<number> {
  return (await db.projectScan.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}
