// Registers the scrape-time readings that live in other modules: the database pool, and each feed's age and record count (cached for
// a few seconds, since a scrape asks twice and feeds change hourly at most).
import { dbPoolReading, reportDbPoolErrorsTo, type Db } from "../db/client";
import { logger } from "../operate/log";
import { noteStoreOutage } from "../operate/outage";
import { feedStatus } from "../feeds/status";
import { metricSources } from "../operate/state";

/**
 * A pooled connection the server drops is an outage, noted once per interval (server/operate/outage.ts), not a
 * stack on stderr. Installed before the database opens, so that start-up's own queries are covered too.
 */
export function reportDbPoolErrorsAsOutages(): void {
  reportDbPoolErrorsTo((err) => {
    if (!noteStoreOutage(err, "database pool")) logger().error({ err }, "database pool connection failed");
  });
}

export function registerMetricSources(db: Db): void {
  metricSources().dbPool = dbPoolReading;
  let cached: { at: number; value: Promise<{ name: string; ageSeconds: number | null; count: number }[]> } | null =
    null;
  metricSources().feeds = () => {
    if (!cached || Date.now() - cached.at > 5000) {
      cached = {
        at: Date.now(),
        value: feedStatus(db).then((all) =>
          all.filter((f) => !f.error).map((f) => ({ name: f.name, ageSeconds: f.ageSeconds, count: f.count })),
        ),
      };
    }
    return cached.value;
  };
}
