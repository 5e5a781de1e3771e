// The kinds of setting the registry knows (issue 23): each parses one variable's raw text with zod at call time and
// throws ConfigurationError naming the variable and what it accepts. Unset and empty mean the default.
import { z } from "zod";

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
  }
}

/** One registered setting: how it reads, what it accepts and what the README says of it. */
export interface Setting<T> {
  /** The kind, as the README's "accepts" column shows it. */
  accepts: string;
  /** The default as the README shows it ("(unset)" when unset has its own meaning, explained in `meaning`). */
  shown: string;
  meaning: string;
  group: string;
  /** A secret: its value never appears in a message. */
  secret?: boolean;
  /** The default differs per use (a feed's cadence): each reader passes it, and start-up cannot check alone. */
  perUse?: boolean;
  /** Read only outside the server (by scripts/ or the tests), so the server's start-up does not check it. */
  outside?: boolean;
  /** The value of `raw` for variable `name`; `fallback` replaces the default of a setting whose default varies. */
  read(name: string, raw: string | undefined, fallback?: T): T;
}

type Doc = { meaning: string; shown?: string; outside?: boolean };
/** A setting before its group is stamped on (see `group` in ./registry). */
export type Ungrouped<T> = Omit<Setting<T>, "group">;

const blank = (raw: string | undefined): raw is undefined => raw === undefined || raw.trim() === "";
const code = (v: string | number) => `\`${v}\``;

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

// Valid numbers already parsed, by variable, text and bounds: settings are read at call time (tests change them
// between cases), and some on every request (an assessment's velocity window, a lookup's timeouts), where building
// the zod schema each time showed in the profile. Bounded: past this many entries it starts over.
const parsedNumbers = new Map<string, number>();
const MAX_PARSED = 1000;

/** `raw` as a number within bounds, the fallback when unset or empty; throws ConfigurationError naming `name`. */
export function parseNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  bounds: NumberBounds,
  unsetMeans: string = String(fallback),
): number {
  if (blank(raw)) return fallback;
  const key = `${name}\0${raw}\0${bounds.min}\0${bounds.max}\0${bounds.integer}`;
  const hit = parsedNumbers.get(key);
  if (hit !== undefined) return hit;
  const value = parseNumberText(name, raw, bounds, unsetMeans);
  if (parsedNumbers.size >= MAX_PARSED) parsedNumbers.clear();
  parsedNumbers.set(key, value);
  return value;
}

function parseNumberText(name: string, raw: string, bounds: NumberBounds, unsetMeans: string): number {
  let schema = z.coerce.number().refine(Number.isFinite);
  if (bounds.integer !== false) schema = schema.refine(Number.isInteger);
  if (bounds.min !== undefined) schema = schema.refine((n) => n >= bounds.min!);
  if (bounds.max !== undefined) schema = schema.refine((n) => n <= bounds.max!);
  const parsed = schema.safeParse(raw.trim());
  if (!parsed.success)
    throw new ConfigurationError(
      `${name}=${JSON.stringify(raw)} is invalid: it must be ${describe(bounds)} (unset means ${unsetMeans}).`,
    );
  return parsed.data;
}

type NumberOptions = Doc &
  NumberBounds & {
    /** Another setting's value (read at call time), or null when each use passes its own (a feed's cadence). */
    default: number | (() => number) | null;
    /** A message of the setting's own, kept from before the registry (tests assert it). */
    message?: (raw: string) => string;
  };

/** A number within bounds; the default may be another setting's value (read at call time). */
export function number(o: NumberOptions): Ungrouped<number> {
  return {
    accepts: describe(o),
    shown: o.shown ?? code(typeof o.default === "number" ? o.default : "?"),
    meaning: o.meaning,
    outside: o.outside,
    perUse: o.default === null,
    read: (name, raw, given) => {
      const fallback = given ?? (typeof o.default === "function" ? o.default() : (o.default ?? Number.NaN));
      try {
        return parseNumber(name, raw, fallback, o);
      } catch (err) {
        if (o.message && raw !== undefined) throw new ConfigurationError(o.message(raw));
        throw err;
      }
    },
  };
}

/** A number within bounds, or null when unset or empty (`unsetMeans` says what that does). */
export function optionalNumber(o: Doc & NumberBounds & { unsetMeans: string }): Ungrouped<number | null> {
  return {
    accepts: describe(o),
    shown: o.shown ?? "(unset)",
    meaning: o.meaning,
    outside: o.outside,
    read: (name, raw) => (blank(raw) ? null : parseNumber(name, raw, 0, o, o.unsetMeans)),
  };
}

/** Free text, trimmed; the default (or null) when unset or empty. */
/** An http(s) URL (what `url` accepts; a shaped text setting may accept one among other things). */
export const httpUrl = z.string().refine((v) => {
  try {
    return ["http:", "https:"].includes(new URL(v).protocol);
  } catch {
    return false;
  }
});

/** What a text setting must look like, when it is more than any text: the check and what the refusal says. */
type Shape = { test: (v: string) => boolean; says: string };

export function text<D extends string | null = null>(o: Doc & { default?: D; accepts?: string; shape?: Shape }) {
  const fallback = (o.default ?? null) as D;
  const shape = o.shape;
  return {
    accepts: o.accepts ?? "text",
    shown: o.shown ?? (fallback === null ? "(unset)" : code(fallback)),
    meaning: o.meaning,
    outside: o.outside,
    read: (name: string, raw: string | undefined): string | D => {
      if (blank(raw)) return fallback;
      const v = raw.trim();
      if (shape && !shape.test(v))
        throw new ConfigurationError(`${name}=${JSON.stringify(raw)} is invalid: it must be ${shape.says}.`);
      return v;
    },
  } satisfies Ungrouped<string | D>;
}

/** A secret (key, token, password): text whose value no message repeats. */
export function secret(o: Doc & { shape?: Shape }) {
  // Its own check, whose refusal never repeats the value.
  const plain = text({ ...o, shape: undefined, accepts: "secret" });
  const shape = o.shape;
  if (!shape) return { ...plain, secret: true };
  return {
    ...plain,
    secret: true,
    read: (name: string, raw: string | undefined): string | null => {
      const v = plain.read(name, raw);
      if (v !== null && !shape.test(v))
        throw new ConfigurationError(`${name} is invalid: it must be ${shape.says} (the value is not shown).`);
      return v;
    },
  };
}

/** An http(s) URL, trimmed; the default (or null) when unset or empty. */
export function url<D extends string | null = null>(o: Doc & { default?: D }) {
  const fallback = (o.default ?? null) as D;
  return {
    accepts: "an http(s) URL",
    shown: o.shown ?? (fallback === null ? "(unset)" : code(fallback)),
    meaning: o.meaning,
    outside: o.outside,
    read: (name: string, raw: string | undefined): string | D => {
      if (blank(raw)) return fallback;
      if (!httpUrl.safeParse(raw.trim()).success)
        throw new ConfigurationError(`${name}=${JSON.stringify(raw)} is invalid: it must be an http(s) URL.`);
      return raw.trim();
    },
  } satisfies Ungrouped<string | D>;
}

const ON = ["1", "true", "yes", "on"];
const OFF = ["0", "false", "no", "off"];

/** On or off: `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`, any case; the default when unset or empty. */
export function flag(o: Doc & { default: boolean }): Ungrouped<boolean> {
  const schema = z.enum([...ON, ...OFF] as [string, ...string[]]);
  return {
    accepts: "`1` or `0` (also true/false, yes/no, on/off)",
    shown: o.shown ?? (o.default ? "(on)" : "(off)"),
    meaning: o.meaning,
    outside: o.outside,
    read: (name, raw) => {
      if (blank(raw)) return o.default;
      const parsed = schema.safeParse(raw.trim().toLowerCase());
      if (!parsed.success)
        throw new ConfigurationError(
          `${name}=${JSON.stringify(raw)} is invalid: it must be 1 or 0 (also true/false, yes/no, on/off; unset means ${o.default ? 1 : 0}).`,
        );
      return ON.includes(parsed.data);
    },
  };
}

/** One of a closed set of words (any case); the default (or null) when unset or empty. */
export function choice<const V extends readonly [string, ...string[]], D extends V[number] | null = null>(
  o: Doc & { values: V; default?: D; message?: (raw: string) => string },
) {
  const fallback = (o.default ?? null) as D;
  const schema = z.enum(o.values);
  return {
    accepts: o.values.map(code).join(", "),
    shown: o.shown ?? (fallback === null ? "(unset)" : code(fallback)),
    meaning: o.meaning,
    outside: o.outside,
    read: (name: string, raw: string | undefined): V[number] | D => {
      if (blank(raw)) return fallback;
      const parsed = schema.safeParse(raw.trim().toLowerCase());
      if (parsed.success) return parsed.data;
      throw new ConfigurationError(
        o.message?.(raw.trim().toLowerCase()) ??
          `${name}=${JSON.stringify(raw)} is invalid: it must be one of ${o.values.join(", ")}.`,
      );
    },
  } satisfies Ungrouped<V[number] | D>;
}

/** A comma-separated list: its items trimmed, empty ones dropped; the default when unset or with no item. */
export function list(
  o: Doc & { default?: readonly string[]; secret?: boolean; accepts?: string; item?: Shape },
): Ungrouped<string[]> {
  const fallback = o.default ?? [];
  const item = o.item;
  return {
    accepts: o.accepts ?? (o.secret ? "comma-separated secrets" : "comma-separated list"),
    shown: o.shown ?? (fallback.length ? code(fallback.join(",")) : "(none)"),
    meaning: o.meaning,
    outside: o.outside,
    secret: o.secret,
    read: (name, raw) => {
      const items = (raw ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = item && !o.secret ? items.filter((v) => !item.test(v)) : [];
      if (bad.length)
        throw new ConfigurationError(
          `${name}=${JSON.stringify(raw)} is invalid: ${bad.map((v) => JSON.stringify(v)).join(", ")} ` +
            `${bad.length > 1 ? "are" : "is"} not ${item!.says}.`,
        );
      return items.length ? items : [...fallback];
    },
  };
}

/** Stamps a group (the README's sub-heading) on each setting of `entries`. */
export function group<T extends Record<string, Ungrouped<unknown>>>(
  name: string,
  entries: T,
): { [K in keyof T]: T[K] & { group: string } } {
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(entries)) out[key] = { ...entry, group: name };
  return out as { [K in keyof T]: T[K] & { group: string } };
}
