// The service's settings, read from the environment in one place (issue 23), in the manner of @t3-oss/env-core:
// every variable named, typed, defaulted and documented once. Values are read at call time, not snapshotted at
// import, so tests may change process.env between cases. An invalid value fails loudly, naming the variable.
import { z } from "zod";

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
  }
}

export interface NumberBounds {
  min?: number;
  max?: number;
  /** Whole numbers only (default true: counts, milliseconds, bytes). */
  integer?: boolean;
}

function describe(b: NumberBounds): string {
  const kind = b.integer === false ? "a number" : "a whole number";
  if (b.min !== undefined && b.max !== undefined) return `${kind} from ${b.min} to ${b.max}`;
  if (b.min !== undefined) return `${kind} of at least ${b.min}`;
  if (b.max !== undefined) return `${kind} of at most ${b.max}`;
  return kind;
}

/** The variable's value as a number within bounds, the fallback when unset or empty; throws ConfigurationError. */
export function numberSetting(name: string, fallback: number, bounds: NumberBounds = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  let schema = z.coerce.number().refine(Number.isFinite);
  if (bounds.integer !== false) schema = schema.refine(Number.isInteger);
  if (bounds.min !== undefined) schema = schema.refine((n) => n >= bounds.min!);
  if (bounds.max !== undefined) schema = schema.refine((n) => n <= bounds.max!);
  const parsed = schema.safeParse(raw.trim());
  if (!parsed.success)
    throw new ConfigurationError(
      `${name}=${JSON.stringify(raw)} is invalid: it must be ${describe(bounds)} (unset means ${fallback}).`,
    );
  return parsed.data;
}

/**
 * SERVICE_UPSTREAM_TIMEOUT_MS (default 5000): the longest a lookup waits for any one upstream (a resolver over all its
 * servers, an RDAP server, a package registry, a target host, certificate transparency) before it answers without it
 * or 503 UPSTREAM_UNAVAILABLE with Retry-After (issue 22, item 19). Each upstream's own timeout setting, when set,
 * overrides it for that upstream.
 */
export function upstreamTimeoutMs(): number {
  return numberSetting("SERVICE_UPSTREAM_TIMEOUT_MS", 5000, { min: 1, max: 120_000 });
}

/**
 * Whether the operator declared a production deployment (SERVICE_ENV=production). NODE_ENV cannot tell: `next
 * start` always runs with NODE_ENV=production, also for a newcomer's local `npm start` and for test servers.
 * `npm start` sets SERVICE_ENV=production itself when the operator started it with NODE_ENV=production.
 */
export function isProductionDeployment(): boolean {
  return process.env.SERVICE_ENV?.trim().toLowerCase() === "production";
}
