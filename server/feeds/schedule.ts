// Feeds refresh themselves: every feed with a live source is a scheduled job of the queue (server/queue/scheduled.ts)
// on its own cadence, run once across instances, retried with backoff, logged once per cadence while it fails, and
// keeping the previous data whenever a refresh fails (refresh.ts replaces a snapshot only after a good download).
// `SERVICE_FEED_<NAME>_URL=off` disables one feed, `SERVICE_FEED_REFRESH=off` all scheduled refreshes (the CLI's
// `feeds refresh` still works), and `SERVICE_FEED_<NAME>_REFRESH_SECONDS` changes one feed's cadence.
import type { Db } from "../db/client";
import { settingOf } from "../env";
import { scheduledJobStates, type ScheduledTask } from "../queue/scheduled";
import { feedInstance, scheduledFeedRefreshEnabled } from "./config";
import { feedDataDate } from "./loader";
import { refreshFeeds } from "./refresh";
import { listFeeds } from "./registry";
import type { FeedDefinition } from "./types";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** Default cadence by feed name (first matching prefix): how fast each kind of list changes at its source. */
const CADENCES: [prefix: string, everyMs: number][] = [
  ["tor-exits", HOUR],
  ["spamhaus-", DAY],
  ["cloud-", DAY],
  ["vpn-", DAY],
  ["relay-", DAY],
  ["kev", DAY],
  ["crawler-", WEEK],
  ["monitor-", WEEK],
  ["platform-", WEEK],
  ["disposable-domains", WEEK],
  ["free-email-domains", WEEK],
  ["public-suffix-list", WEEK],
  ["rdap-bootstrap-", WEEK],
  ["asn-", WEEK],
];

export const FEED_JOB_PREFIX = "feed.refresh:";

/** How often a feed refreshes (its setting, else the default for its kind, else weekly). */
export function feedCadenceMs(feed: string): number {
  const fallback = CADENCES.find(([p]) => feed.startsWith(p))?.[1] ?? WEEK;
  return settingOf("SERVICE_FEED_<NAME>_REFRESH_SECONDS", feedInstance(feed), fallback / 1000) * 1000;
}

/** Reads every feed's cadence setting once (start-up validation names an invalid one). */
export function feedCadenceSettings(): Record<string, number> {
  return Object.fromEntries(listFeeds().map((d) => [d.name, feedCadenceMs(d.name)]));
}

/** A refresh that kept the old data is a failed run of the job (backoff, one log line per cadence). */
function feedTask(def: FeedDefinition<unknown>): ScheduledTask {
  const everyMs = feedCadenceMs(def.name);
  return {
    name: FEED_JOB_PREFIX + def.name,
    everyMs,
    retryMs: Math.min(everyMs, 5 * 60_000),
    // A feed whose data is younger than its cadence (just shipped, or refreshed by the CLI) is not fetched again now.
    firstDueAt: async (db) => new Date((await feedDataDate(def, db)).getTime() + everyMs),
    run: async (db) => {
      const [result] = await refreshFeeds(db, { feed: def.name });
      if (result && !result.ok) throw new Error(result.error ?? "refresh failed");
    },
  };
}

/** The scheduled refresh jobs: one per feed that has a live source now. */
export function feedRefreshTasks(): ScheduledTask[] {
  if (!scheduledFeedRefreshEnabled()) return [];
  return listFeeds()
    .filter((d) => d.sourceUrl())
    .map(feedTask);
}

export interface FeedRefreshState {
  /** "scheduled": refreshes on its cadence; "off": disabled by configuration; "snapshot": no live source exists. */
  mode: "scheduled" | "off" | "snapshot";
  everySeconds: number | null;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastError: string | null;
  lastFailedAt: string | null;
  failures: number;
}

/** The refresh side of each feed's status (cadence, next run, last error), by feed name. */
export async function feedRefreshStates(db: Db): Promise<Map<string, FeedRefreshState>> {
  const defs = listFeeds();
  const states = await scheduledJobStates(
    db,
    defs.map((d) => FEED_JOB_PREFIX + d.name),
  ).catch(() => new Map());
  const out = new Map<string, FeedRefreshState>();
  const on = scheduledFeedRefreshEnabled();
  for (const def of defs) {
    const hasSource = Boolean(def.sourceUrl());
    const mode: FeedRefreshState["mode"] = !hasSource
      ? isDisabledByUrl(def.name)
        ? "off"
        : "snapshot"
      : on
        ? "scheduled"
        : "off";
    const s = states.get(FEED_JOB_PREFIX + def.name);
    const every = mode === "scheduled" ? feedCadenceMs(def.name) : null;
    let next: Date | null = null;
    if (mode === "scheduled") next = s ? s.nextRunAt : new Date((await feedDataDate(def, db)).getTime() + every!);
    out.set(def.name, {
      mode,
      everySeconds: every === null ? null : every / 1000,
      nextRunAt: next ? new Date(Math.max(next.getTime(), Date.now())).toISOString() : null,
      lastRunAt: s?.lastRunAt?.toISOString() ?? null,
      lastError: s?.lastError ?? null,
      lastFailedAt: s?.lastError ? (s.lastFailedAt?.toISOString() ?? null) : null,
      failures: s?.failures ?? 0,
    });
  }
  return out;
}

function isDisabledByUrl(feed: string): boolean {
  return settingOf("SERVICE_FEED_<NAME>_URL", feedInstance(feed)) === "off";
}
