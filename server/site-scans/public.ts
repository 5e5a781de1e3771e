// What the public may see of scans: the badge of a host and the leaderboard. Only scans with visibility "public"
// are ever read here; private and unlisted scans never appear, whatever their grade.
import type { Db } from "../db/client";
import type { Leaderboard } from "./schemas";

export const LEADERBOARD_WINDOW_DAYS = 30;

export async function latestPublicScan(db: Db, host: string) {
  return db.scan.findFirst({
    where: { host, visibility: "public", status: "done" },
    orderBy: { createdAt: "desc" },
    select: { id: true, grade: true, score: true, createdAt: true },
  });
}

export async function getLeaderboard(db: Db, limit = 20, now = new Date()): Promise<Leaderboard> {
  const since = new Date(now.getTime() - LEADERBOARD_WINDOW_DAYS * 86_400_000);
  const rows = await db.scan.findMany({
    where: { visibility: "public", status: "done", createdAt: { gte: since } },
    orderBy: { createdAt: "desc" },
    select: { id: true, host: true, score: true, grade: true, createdAt: true },
    take: 5000,
  });
  // One entry per host: its latest public scan, compared with its earliest public scan in the window.
  const byHost = new Map<string, typeof rows>();
  for (const r of rows) byHost.set(r.host, [...(byHost.get(r.host) ?? []), r]);
  const entries = [...byHost.values()].map((scans) => {
    const latest = scans[0]!;
    const earliest = scans.at(-1)!;
    const previous = scans.length > 1 ? earliest.score : null;
    return {
      host: latest.host,
      scan_id: latest.id,
      grade: latest.grade!,
      score: latest.score!,
      scanned_at: latest.createdAt.toISOString(),
      previous_score: previous,
      improvement: previous === null ? null : latest.score! - previous,
    };
  });
  const best = [...entries].sort((a, b) => b.score - a.score || a.host.localeCompare(b.host)).slice(0, limit);
  const mostImproved = entries
    .filter((e) => (e.improvement ?? 0) > 0)
    .sort((a, b) => b.improvement! - a.improvement! || a.host.localeCompare(b.host))
    .slice(0, limit);
  return { window_days: LEADERBOARD_WINDOW_DAYS, best, most_improved: mostImproved, generated_at: now.toISOString() };
}
