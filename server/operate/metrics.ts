// Prometheus metrics of this process (prom-client). Labels hold only bounded, non-identifying values: methods,
// OpenAPI route templates, status codes, error codes, capabilities, plan slugs, outcomes and feed names; never a
// key, workspace id, email address or IP address. One registry per process on globalThis (see state.ts).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { metricSources } from "./state";

export interface ServiceMetrics {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  duration: Histogram<"method" | "route" | "status">;
  unitsReserved: Counter<"capability" | "plan">;
  admissionsRefused: Counter<"code">;
  webhookDeliveries: Counter<"outcome">;
  keyCache: Counter<"outcome">;
}

const g = globalThis as unknown as { __serviceMetrics?: ServiceMetrics };

export function metrics(): ServiceMetrics {
  if (g.__serviceMetrics) return g.__serviceMetrics;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's `nodejs_active_{handles,requests,resources}_total` are gauges with a counter's suffix, which
  // `promtool check metrics` rejects; the same numbers stay available as the per-type gauges without the suffix.
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"])
    registry.removeSingleMetric(name);
  const registers = [registry];
  const m: ServiceMetrics = {
    registry,
    requests: new Counter({
      name: "service_http_requests_total",
      help: "API requests by method, route template and status",
      labelNames: ["method", "route", "status"],
      registers,
    }),
    duration: new Histogram({
      name: "service_http_request_duration_seconds",
      help: "API request duration by method, route template and status",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    unitsReserved: new Counter({
      name: "service_lookup_units_reserved_total",
      help: "Lookup units reserved by capability and plan",
      labelNames: ["capability", "plan"],
      registers,
    }),
    admissionsRefused: new Counter({
      name: "service_admissions_refused_total",
      help: "API requests refused by error code",
      labelNames: ["code"],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "service_webhook_deliveries_total",
      help: "Webhook delivery attempts by outcome",
      labelNames: ["outcome"],
      registers,
    }),
    keyCache: new Counter({
      name: "service_key_cache_total",
      help: "Metered requests by how their API key was resolved: hit (from the key cache), miss (read from the database), stale (a cached key or plan no longer held and was read again)",
      labelNames: ["outcome"],
      registers,
    }),
  };
  new Gauge({
    name: "service_feed_age_seconds",
    help: "Age of each data feed's current snapshot (none for a feed that holds no data yet, such as a list shipped empty)",
    labelNames: ["feed"],
    registers,
    async collect() {
      this.reset();
      for (const f of (await metricSources()
        .feeds?.()
        .catch(() => [])) ?? [])
        if (f.ageSeconds !== null) this.set({ feed: f.name }, f.ageSeconds);
    },
  });
  new Gauge({
    name: "service_feed_records",
    help: "Records in each data feed's current snapshot",
    labelNames: ["feed"],
    registers,
    async collect() {
      this.reset();
      for (const f of (await metricSources()
        .feeds?.()
        .catch(() => [])) ?? [])
        this.set({ feed: f.name }, f.count);
    },
  });
  new Gauge({
    name: "service_db_pool_connections",
    help: "PostgreSQL connections of the app instance's pools together (Prisma's and the hot statements'), by state (absent on the embedded database)",
    labelNames: ["state"],
    registers,
    collect() {
      this.reset();
      const p = metricSources().dbPool?.();
      if (!p) return;
      this.set({ state: "in_use" }, p.inUse);
      this.set({ state: "waiting" }, p.waiting);
      this.set({ state: "total" }, p.total);
    },
  });
  g.__serviceMetrics = m;
  return m;
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The method label: one of the methods HTTP APIs use, else "other" (a client may send any token). */
export function methodLabel(method: string): string {
  const m = method.toUpperCase();
  return KNOWN_METHODS.has(m) ? m : "other";
}

/** The plan label of a workspace: its plan slugs, sorted and joined (a bounded set, never an id). */
export function planLabel(plans: readonly string[]): string {
  return plans.length ? [...plans].sort().join("+") : "free";
}
