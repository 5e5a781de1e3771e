// One error type with a closed set of codes and one table from code to HTTP status, used by both ways in
// (REST /v1 and the dashboard's tRPC). Domain code throws AppError, a plain Error that knows nothing of tRPC or
// HTTP frameworks; the tRPC setup maps it to a tRPC error (server/api/trpc.ts). Nothing else decides a status.

import { z } from "zod";
import { storeOutageReason } from "./db/outage-reason";

export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  /** Input that must never be sent (a full card number in `payment`): refused, neither stored nor logged. */
  INVALID_INPUT: 400,
  TARGET_FORBIDDEN: 400,
  UNAUTHORIZED: 401,
  QUOTA_EXCEEDED: 402,
  CAPABILITY_REQUIRED: 403,
  BULK_LOOKUPS_REQUIRED: 403,
  API_KEY_PAUSED: 403,
  ORIGIN_FORBIDDEN: 403,
  FORBIDDEN: 403,
  LOOKUP_NOT_FOUND: 404,
  NOT_FOUND: 404,
  PACKAGE_NOT_FOUND: 404,
  VERSION_NOT_FOUND: 404,
  CVE_NOT_FOUND: 404,
  DOMAIN_NOT_FOUND: 404,
  CONFLICT: 409,
  KEY_LIMIT_REACHED: 409,
  MEMBER_LIMIT_REACHED: 409,
  SENDER_LIMIT_REACHED: 409,
  MONITOR_LIMIT_REACHED: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/**
 * An error made for an answer below 500 captures no stack: it is an answer, not a fault (the refusals of the ladder are
 * the commonest answers of a public API, and capturing and formatting a stack cost more than the rest of a 401).
 * Lowers Error.stackTraceLimit for such a status and returns the limit to put back once the error is made; a `super()`
 * call cannot sit inside a function, so AppError uses this directly, and withStackFor wraps every other construction.
 */
export function stackLimitFor(status: number): number {
  const limit = Error.stackTraceLimit;
  if (status < 500) Error.stackTraceLimit = 0;
  return limit;
}

/** `make()` with no stack captured when `status` is below 500 (stackLimitFor). */
export function withStackFor<T>(status: number, make: () => T): T {
  const limit = stackLimitFor(status);
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export class AppError extends Error {
  readonly appCode: ErrorCode;
  readonly status: number;
  /** Extra response headers that belong to this error (e.g. Retry-After on 429). */
  readonly headers: Record<string, string>;

  constructor(appCode: ErrorCode, message: string, opts: { headers?: Record<string, string>; cause?: unknown } = {}) {
    const status = ERROR_STATUS[appCode];
    // A refusal below 500 is an answer, not a fault: no stack is captured for it (stackLimitFor).
    const limit = stackLimitFor(status);
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    Error.stackTraceLimit = limit;
    this.name = "AppError";
    this.appCode = appCode;
    this.status = status;
    this.headers = opts.headers ?? {};
    // Clients (ours in clients/typescript included) back off on 503 by Retry-After: every 503 carries one.
    if (status === 503 && !Object.keys(this.headers).some((k) => k.toLowerCase() === "retry-after")) {
      this.headers = { ...this.headers, "Retry-After": "10" };
    }
  }
}

/**
 * The refusal of a page's `cursor` that names no item of its list in this workspace (another workspace's, made up, or
 * since deleted by the retention purge): 400, rather than an empty page a client would read as the list's end.
 */
export function unknownCursorError(field: string): AppError {
  return new AppError(
    "INVALID_REQUEST",
    `cursor: unknown cursor (its item may have been deleted since); use the ${field} of the previous page, or start again from the first page.`,
  );
}

export type ErrorBody = { error: { code: string; message: string } };

/**
 * tRPC's refusals of a call's method or body (GET on a mutation, POST on a query, a body that is not JSON), which
 * toErrorBody answers 404 and 400 below rather than tRPC's 405 and 415; the dashboard's endpoint takes their status from it.
 */
export const TRPC_SHAPE_REFUSALS: ReadonlySet<string> = new Set(["METHOD_NOT_SUPPORTED", "UNSUPPORTED_MEDIA_TYPE"]);

/**
 * Turns anything thrown into the public error body. Zod input failures become 400 INVALID_REQUEST (or the 400 code
 * an issue names) with the first issues spelled out; an unexpected error never leaks its message.
 */
export function toErrorBody(err: unknown): {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Set when the database could not be reached (logged by server/db/outage.ts, once per interval). */
  outage?: true;
  /** Set when an input check threw an exception of its own (answered 400 in general words; worth a log line). */
  checkThrew?: true;
} {
  const app = findAppError(err);
  if (app)
    return { status: app.status, body: { error: { code: app.appCode, message: app.message } }, headers: app.headers };
  // tRPC's own errors (input validation, unknown procedure), recognised by shape so this module needs no tRPC.
  if (err instanceof Error && err.name === "TRPCError") {
    const code = (err as Error & { code?: string }).code;
    if (code === "BAD_REQUEST" && checkThrew(err)) {
      return {
        status: 400,
        body: { error: { code: "INVALID_REQUEST", message: CHECK_THREW_MESSAGE } },
        headers: {},
        checkThrew: true,
      };
    }
    if (code === "BAD_REQUEST" || code === "PARSE_ERROR") {
      return {
        status: 400,
        body: { error: { code: inputErrorCode(err), message: describeInputError(err) } },
        headers: {},
      };
    }
    // An unknown procedure, or one called with the method it does not take (GET on a mutation, POST on a query):
    // an unregistered path or method, as on /v1. These were 405 "Internal error." and logged as bugs.
    if (code === "NOT_FOUND" || code === "METHOD_NOT_SUPPORTED") {
      return {
        status: 404,
        body: { error: { code: "LOOKUP_NOT_FOUND", message: "No such route or method." } },
        headers: {},
      };
    }
    // A body that is not JSON (Content-Type text/plain): tRPC's 415.
    if (code === "UNSUPPORTED_MEDIA_TYPE") {
      return {
        status: 400,
        body: {
          error: {
            code: "INVALID_REQUEST",
            message: "The request body must be JSON (Content-Type: application/json).",
          },
        },
        headers: {},
      };
    }
  }
  // A database that cannot be reached is an outage, not a bug: 503 with Retry-After, so clients back off and retry
  // (nothing was charged: the reservation is a write to that same database). `outage` lets the caller leave the
  // logging to server/db/outage.ts, which says it once per interval.
  if (storeOutageReason(err))
    return {
      status: 503,
      body: {
        error: {
          code: "UPSTREAM_UNAVAILABLE",
          message: "The service's database is unavailable; retry after the time in Retry-After.",
        },
      },
      headers: { "Retry-After": DB_OUTAGE_RETRY_AFTER_S },
      outage: true,
    };
  return { status: 500, body: { error: { code: "INTERNAL_ERROR", message: "Internal error." } }, headers: {} };
}

/**
 * An input check (a schema's transform or refinement, or a library it calls) that threw an exception of its own
 * rather than report an issue: the input is what it could not read, so 400, but the exception's text is the code's,
 * not the client's (it named internals), so the answer says it in general words and the door logs the exception.
 */
const CHECK_THREW_MESSAGE = "A field of the request could not be read; check the request against the API reference.";
function checkThrew(err: Error): boolean {
  const cause = err.cause;
  return (
    cause instanceof Error &&
    cause.name !== "TRPCError" &&
    !Array.isArray((cause as { issues?: unknown }).issues) &&
    findAppError(cause) === null
  );
}

/** Seconds a client waits before retrying while the database is unavailable. */
const DB_OUTAGE_RETRY_AFTER_S = "5";

function findAppError(err: unknown): AppError | null {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur; i++) {
    if (cur instanceof AppError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
}

export type Issue = {
  path?: PropertyKey[];
  message?: string;
  code?: string;
  expected?: string;
  /** A schema's own refusal may name its 400 code (`params: { errorCode: "INVALID_INPUT" }`); else INVALID_REQUEST. */
  params?: { errorCode?: unknown };
};

/** The 400 code an input failure answers: one an issue names (a 400 of the table), else INVALID_REQUEST. */
function inputErrorCode(err: Error): ErrorCode {
  const issues = (err.cause as { issues?: Issue[] } | undefined)?.issues;
  for (const i of Array.isArray(issues) ? issues : []) {
    const named = i.params?.errorCode;
    if (typeof named === "string" && named in ERROR_STATUS && ERROR_STATUS[named as ErrorCode] === 400)
      return named as ErrorCode;
  }
  return "INVALID_REQUEST";
}

/**
 * zod's words, where they are not a person's: a field that was not sent "is required" whatever it should have been
 * (zod says "expected string, received undefined", or lists an enum's options as if a wrong one had been sent), and
 * an empty string where one is needed "must not be empty" (zod: "Too small: expected string to have >=1
 * characters"), and a field of the wrong type "expected true or false, got a string" (zod: "Invalid input: expected
 * boolean, received string"). Set once for the process as zod's error map; a schema's own message still wins over
 * it. The map sees the refused input, which an issue no longer carries. test/foundation/missing-fields.test.ts holds
 * all three.
 */
const IS_REQUIRED = "is required";
/** What a field of the wrong type should have been, in words ("expected true or false, got a string"). */
const EXPECTED_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  // An open object (zod's record: /assess's `metadata`), which zod calls a "record".
  record: "an object",
  array: "an array",
};
const sentType = (v: unknown) =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "an array"
      : typeof v === "number" && !Number.isFinite(v)
        ? "something that is not a number" // a coerced query value ("abc" becomes NaN)
        : typeof v === "object"
          ? "an object"
          : `a ${typeof v}`;
/** A refusal of one form of a union, as the map has already worded it. */
type BranchIssue = { code?: string; path?: PropertyKey[]; message?: string; expected?: string; values?: unknown[] };

/**
 * The forms of a union field that the sent value is not even of (an object sent where a string or a number is
 * taken, a number where one of some words is): each refused it at its root for its type, or as none of its words.
 */
const notOfThisForm = (branch: BranchIssue[], input: unknown) =>
  branch.length > 0 &&
  branch.every(
    (i) =>
      (i.path ?? []).length === 0 &&
      (i.code === "invalid_type" ||
        (i.code === "invalid_value" && !(i.values ?? []).some((v) => typeof v === typeof input))),
  );

/**
 * A field that takes one of several forms (a monitor's check: a word or an object; a list item's value: text or a
 * number) says what is wrong with the value zod could not match, not zod's bare "Invalid input": the problem of the
 * one form the value is of ("checks.0.type: Invalid option: expected one of ..."), or, when it is of none, the forms
 * taken ("expected a string or a number, got an object"). Several forms the value could be of keep zod's words.
 */
function unionMessage(path: PropertyKey[], branches: BranchIssue[][], input: unknown): string | undefined {
  const candidates = branches.filter((b) => !notOfThisForm(b, input));
  if (candidates.length === 1) {
    const first = candidates[0]![0];
    if (!first?.message) return undefined;
    const field = [...path, ...(first.path ?? [])].map(String).join(".");
    return field ? `${field}: ${first.message}` : first.message;
  }
  if (candidates.length > 0) return undefined;
  const forms = new Set<string>();
  for (const i of branches.flat()) {
    if (i.code === "invalid_type" && i.expected && Object.hasOwn(EXPECTED_WORDS, i.expected))
      forms.add(EXPECTED_WORDS[i.expected]!);
    else if (i.code === "invalid_value" && i.values?.length)
      forms.add(`one of ${i.values.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  return forms.size > 0 ? `expected ${[...forms].join(" or ")}, got ${sentType(input)}` : undefined;
}

/** A bound's issue, as zod 4 reports it (too_big carries `maximum`, too_small `minimum`). */
type BoundIssue = {
  code: "too_big" | "too_small";
  origin?: string;
  maximum?: unknown;
  minimum?: unknown;
  inclusive?: boolean;
  exact?: boolean;
};

/**
 * A bound in words ("must be at most 500", "must have at least 1 item", "must be at most 64 characters"), not
 * zod's "Too big: expected number to be <=500". Dates and files keep zod's words.
 */
function boundWords(iss: BoundIssue): string | undefined {
  const big = iss.code === "too_big";
  const n = big ? iss.maximum : iss.minimum;
  if (typeof n !== "number" && typeof n !== "bigint") return undefined;
  const count = (one: string) => `${n} ${one}${n === 1 || n === 1n ? "" : "s"}`;
  const side = iss.exact ? "exactly" : big ? "at most" : "at least";
  switch (iss.origin) {
    case "number":
    case "int":
    case "bigint":
      if (iss.inclusive === false) return `must be ${big ? "less" : "greater"} than ${n}`;
      return `must be ${big ? "at most" : "at least"} ${n}`;
    case "string":
      return `must be ${side} ${count("character")}`;
    case "array":
    case "set":
      return `must have ${side} ${count("item")}`;
    default:
      return undefined;
  }
}

/**
 * Keys a nested object does not take (zod: 'Unrecognized key: "cvv"'), said as a top-level unknown field is said
 * (server/api/input-fields.ts unknownFieldsProblem): each with its path, then what the object takes.
 */
function unknownKeysWords(path: readonly PropertyKey[], keys: readonly string[], inst: unknown): string {
  const at = path.map(String).join(".");
  const named = keys.slice(0, 10).map((k) => `${at ? `${at}.` : ""}${k.length > 64 ? `${k.slice(0, 64)}...` : k}`);
  const more = keys.length > 10 ? `, and ${keys.length - 10} more` : "";
  const shape = (inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
  const takes = shape ? ` ${at || "This operation"} takes: ${Object.keys(shape).sort().join(", ")}.` : "";
  return `Received unknown parameter${keys.length === 1 ? "" : "s"}: ${named.join(", ")}${more}.${takes}`;
}

z.config({
  customError: (iss) => {
    if (iss.code === "unrecognized_keys") return unknownKeysWords(iss.path ?? [], iss.keys, iss.inst);
    if (iss.input === undefined && iss.code !== "custom") return IS_REQUIRED;
    if (iss.code === "invalid_union") return unionMessage(iss.path ?? [], iss.errors as BranchIssue[][], iss.input);
    // A key of an open object that its key schema refuses (zod: "Invalid key in record"); the issue's path is the key.
    if (iss.code === "invalid_key") {
      const why = (iss.issues ?? []).map((i) => i.message).filter(Boolean);
      return why.length > 0 ? `a key ${why.join("; ")}` : undefined;
    }
    if (iss.code === "too_small" && iss.origin === "string" && iss.minimum === 1 && iss.input === "")
      return "must not be empty";
    if (iss.code === "too_big" || iss.code === "too_small") return boundWords(iss as BoundIssue);
    // A number that is not whole is named ("got 1.5"): "expected a whole number, got a number" would say nothing.
    if (iss.code === "invalid_type" && iss.expected === "int" && Number.isFinite(iss.input))
      return `expected a whole number, got ${iss.input}`;
    if (iss.code === "invalid_type" && Object.hasOwn(EXPECTED_WORDS, iss.expected))
      return `expected ${EXPECTED_WORDS[iss.expected]}, got ${sentType(iss.input)}`;
    return undefined;
  },
});

/** A date that did not parse says what to write instead of zod's "expected date, received Date". */
const issueMessage = (i: Issue) =>
  i.code === "invalid_type" && i.expected === "date" && i.message !== IS_REQUIRED
    ? "not a date; write an ISO 8601 date or date-time such as 2027-01-31T00:00:00Z"
    : String(i.message);

/**
 * One input problem as the API words it: `field: message`, or the message alone when it already begins with its
 * field ("payment.bin must be ...") or has none. The 400s below and a bulk job's item problems (bulk-procedures.ts).
 */
export function issueText(i: Issue): string {
  const message = issueMessage(i);
  // Its words name each key with its path already (unknownKeysWords).
  if (!i.path || i.path.length === 0 || i.code === "unrecognized_keys") return message;
  const field = i.path.map(String).join(".");
  return message.startsWith(`${field} `) || message.startsWith(`${field}:`) || message.startsWith(`${field}.`)
    ? message
    : `${field}: ${message}`;
}

const samePath = (a: Issue, b: Issue) =>
  (a.path ?? []).length === (b.path ?? []).length && (a.path ?? []).every((p, i) => p === b.path![i]);

const isBound = (i: Issue) => i.code === "too_small" || i.code === "too_big";
const boundOf = (i: Issue) => {
  const n = (i as { maximum?: unknown; minimum?: unknown })[i.code === "too_big" ? "maximum" : "minimum"];
  return typeof n === "number" || typeof n === "bigint" ? Number(n) : null;
};
/** Whether bound `j` of the same field and side is tighter than `i` (at most 100 beside at most 2^53 - 1). */
const tighter = (j: Issue, i: Issue) => {
  const [a, b] = [boundOf(i), boundOf(j)];
  return a !== null && b !== null && (i.code === "too_big" ? b < a : b > a);
};

/**
 * One field, one message: a schema's generic length bound (zod's too_small / too_big) says nothing when the field's
 * own check reports the same field (a domain's "A domain name is required." beside ">=1 characters", or "at most 253
 * characters" beside "<=300"), nor when the field is not of the type the bound is for (an array sent for a string
 * "must have at least 3 items", a string sent for an array "must be at most 9 characters": zod still checks the
 * length of what was sent), nor beside a tighter bound of its own side (a whole number's "at most
 * 9007199254740991" beside the field's "at most 100"); and a message said twice is said once.
 */
function sayingOneThing(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    if (
      isBound(i) &&
      issues.some(
        (j) =>
          j !== i &&
          samePath(i, j) &&
          (j.code === "custom" || j.code === "invalid_type" || (j.code === i.code && tighter(j, i))),
      )
    )
      return false;
    const text = issueText(i);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

function describeInputError(err: Error): string {
  const issues = (err.cause as { issues?: Issue[] } | undefined)?.issues;
  if (Array.isArray(issues) && issues.length > 0) return sayingOneThing(issues).slice(0, 5).map(issueText).join("; ");
  return err.message && !err.message.startsWith("[") ? err.message : "Invalid request input.";
}
