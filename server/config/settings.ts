// Reading numeric settings from the environment, validated with zod. An invalid value fails loudly, naming the
// variable and what it accepts, instead of silently falling back to the default (a typo such as
// SERVICE_TARGET_TIMEOUT_MS=10s used to run with 10000 and nobody knew). Unset or empty means the default.
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
