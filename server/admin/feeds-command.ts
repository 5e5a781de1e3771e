// `feeds status` and `feeds refresh`: thin wrappers over the feed module.
import type { Db } from "../db/client";
import { refreshFeeds, type FeedRefreshResult } from "../feeds/refresh";
import { FEED_JOB_PREFIX } from "../feeds/schedule";
import { recordSuccessOutsideSchedule } from "../queue/scheduled";
import { feedStatus } from "../feeds/status";

export async function feedsCommand(
  db: Db,
  verb: string,
  feed: string | null,
): Promise<{ result: unknown; text: string; failed?: string }> {
  if (verb === "status") {
    const rows = await feedStatus(db);
    return { result: rows, text: statusTable(rows) };
  }
  // refreshFeeds refuses an unknown name itself, listing the known ones.
  const rows = await refreshFeeds(db, feed ? { feed } : {});
  // A feed refreshed here is no longer failing: `feeds status` stops showing its last scheduled failure.
  for (const r of rows) if (r.ok) await recordSuccessOutsideSchedule(db, FEED_JOB_PREFIX + r.name);
  // A feed with a live source that could not be refreshed fails the command (exit 1, after the rows), so a scheduled
  // `feeds refresh` notices; a feed without a live source (a snapshot only, or its URL set to off) is not a failure.
  const failing = rows.filter((r) => !r.ok && r.sourceUrl !== null);
  return {
    result: rows,
    text: rows.map(refreshLine).join("\n"),
    ...(failing.length > 0 && {
      failed: `refresh failed for ${failing.map((r) => `${r.name} (${r.error})`).join(", ")}; the previous data is kept`,
    }),
  };
}

/** One feed's refresh in words: what it holds now, and why it was not refreshed when it was not. */
function refreshLine(r: FeedRefreshResult): string {
  if (r.ok) return `${r.name}: refreshed, ${r.count} entries`;
  const held = r.fetchedAt ? `${r.count} entries from ${r.fetchedAt}` : null;
  if (r.sourceUrl === null) return `${r.name}: not refreshed (${r.error}); ${held ?? "no data yet"}`;
  return `${r.name}: refresh failed (${r.error}); ${held ? `kept its ${held}` : "no data yet"}`;
}

const ageText = (seconds: number) =>
  seconds >= 86_400
    ? `${Math.floor(seconds / 86_400)} d`
    : seconds >= 3600
      ? `${Math.floor(seconds / 3600)} h`
      : `${Math.floor(seconds / 60)} min`;
const everyText = (seconds: number | null) => (seconds === null ? "" : `every ${ageText(seconds)}`);

/** One line per feed: name, origin, entries, age, refresh cadence, next run, and the last error while failing. */
function statusTable(rows: Awaited<ReturnType<typeof feedStatus>>): string {
  const lines = rows.map((r) => {
    const refresh =
      r.refresh.mode === "scheduled"
        ? `${everyText(r.refresh.everySeconds)}, next ${r.refresh.nextRunAt}`
        : r.refresh.mode === "off"
          ? "refresh off"
          : "snapshot only (no live source)";
    const failing = r.refresh.lastError
      ? `  LAST REFRESH FAILED (${r.refresh.failures}x, ${r.refresh.lastFailedAt}): ${r.refresh.lastError}`
      : "";
    const problem = r.error ? `  ERROR: ${r.error}` : "";
    const age = r.ageSeconds === null ? "no data yet" : `${ageText(r.ageSeconds)} old`;
    return [r.name, r.origin, String(r.count), age, refresh].join("\t") + failing + problem;
  });
  return ["feed\torigin\tentries\tage\trefresh", ...lines].join("\n");
}
