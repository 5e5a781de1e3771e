// POST /v1/assess through a plain door. The assessment sits in every login and checkout of a customer's own flow,
// so its request path is the product's hottest: the production server (scripts/rest-direct.mjs) hands it here with
// the body already read from node:http, and gets its status, headers and body back as plain values. No WHATWG
// Request, Headers, Response or streams; no tRPC caller, whose middleware levels copy their options and context;
// no second pass of the answer through its output schema: assess() builds it in the schema's shape and key order,
// and the test harness (test/harness.ts) checks that every answer of the suite is byte for byte the schema's parse.
//
// Everything else is the REST entry's and the metered ladder's, called in their order and from their modules:
// input assembly and the 1 MB cap as server/api/rest/handler.ts, then the ladder of server/api/trpc.ts
// (`authenticated`, `rejectUnreadableInput`, the input's schema, `meteredProcedure`) through the same functions
// (authenticateCaller, requirementRefusal, noteOutcome, screenInput, admitCharged, givenBackOf, giveBack,
// rememberCharged, refusalAfterFailure), the same observation (server/operate/observe.ts) and the same refunds of
// an unanswered or undelivered answer. One difference: the door's velocity read runs in the reservation's statement
// (velocityAlongside), one round trip fewer than the route's read after its reservation; it sees the events
// committed before the reservation statement began, with windows fixed just before admission (the route's read
// starts a moment later), so requests that race each other may count one another differently through the two
// doors. test/assessment/assess-door.test.ts sends the same requests through this door and through the route's
// handler and compares every answer and what it left in the store; the test harness sends every POST /v1/assess of
// the suite through this door, as the production server does.
import { TRPCError } from "@trpc/server";
import { assess, velocityAlongside } from "../../assessment/assess";
import type { AssessResult } from "../../assessment/schemas";
import { getDb, type Db } from "../../db/client";
import { AppError, toErrorBody } from "../../errors";
import { newId } from "../../ids";
import { authenticateRestKeyOrThrow } from "../../keys/publishable";
import { clientRequestId, inRequestSpan, recordRequest } from "../../operate/observe";
import { logger } from "../../operate/log";
import { authenticateCaller, refusalAfterFailure, type Judge } from "../../quota/admission";
import type { Charge, Principal } from "../context";
import { requirementRefusal } from "../contract";
import { copyProcedureHeaders, errorParts, JSON_TYPE, jsonBodyOf, startingHeaders } from "../http/respond";
import { declaredFieldsOfSchema, unknownFieldsProblem } from "../input-fields";
import { screenInput } from "../input-screen";
import { ASSESS_FREE_TEXT, assessMetering } from "../routers/assessment/assess";
import {
  admitCharged,
  giveBack,
  givenBackOf,
  INVALID_INPUT_MARKER,
  meteredRequirement,
  noteOutcome,
  rememberCharged,
} from "../trpc";
import { MAX_BODY_BYTES } from "./handler";
import { undeliveredRefund } from "./undelivered";

/** The procedure behind the door, as the REST route table and the analytics name it. */
export const ASSESS_PROCEDURE = "assessment.assess";
const ROUTE = "/assess";
type AssessInput = typeof assessMetering.input;
/** The fields the assessment declares: any other top-level field is refused, as `rejectUnreadableInput` does. */
const ASSESS_FIELDS = declaredFieldsOfSchema(assessMetering.input);

/** A request as node:http gives it: header names in lower case, a repeated header as an array. */
export interface PlainRequest {
  method: string;
  /** The path and query. */
  url: string;
  /** With the x-forwarded-* values Next's server fills in when the client sent none (scripts/rest-direct.mjs). */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** performance.now() when the request arrived, before its body was read (the duration observed counts from it). */
  receivedAt?: number;
}

export interface PlainAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** Gives a charged request's units back when its answer cannot be delivered (undelivered.ts); else null. */
  undelivered: (() => void) | null;
}

/**
 * Whether the door answers this request: POST /v1/assess (a query string is ignored there, as on the route) with a
 * body of declared length within the cap, not compressed, and no Origin. Anything else takes the route's own path:
 * a browser's call (CORS), a chunked or oversized body (the route's byte cap), a compressed body (the route decodes
 * it: body-encoding.ts), any other method or path.
 */
export function takesPlainDoor(method: string, url: string, headers: PlainRequest["headers"]): boolean {
  if (method !== "POST") return false;
  const path = url.split("?", 1)[0];
  if (path !== "/v1/assess" && path !== "/v1/assess/") return false;
  if (headers.origin !== undefined || headers["transfer-encoding"] !== undefined) return false;
  if (headers["content-encoding"] !== undefined) return false;
  const length = headers["content-length"];
  return typeof length === "string" && /^\d{1,7}$/.test(length) && Number(length) <= MAX_BODY_BYTES;
}

/** A header's value as Headers#get gives it: repeated values joined with ", ", null when absent. */
function headerReader(headers: PlainRequest["headers"]): Pick<Headers, "get"> {
  return {
    get(name: string) {
      const v = headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
    },
  };
}

/** Response headers by lower-case name: the few the ladder sets (quota, Cache-Control), and the answer's own. */
class AnswerHeaders {
  private readonly values = new Map<string, string>();
  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.set(k, v);
  }
  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }
  set(name: string, value: string): void {
    this.values.set(name.toLowerCase(), value);
  }
  forEach(fn: (value: string, name: string) => void): void {
    this.values.forEach(fn);
  }
  toRecord(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
}

/** Answers POST /v1/assess, observed as the route's answers are (log line, metrics, span, correlation id). */
export function answerPlain(req: PlainRequest): Promise<PlainAnswer> {
  return inRequestSpan(req.method, async (span) => {
    const started = req.receivedAt ?? performance.now();
    const headers = headerReader(req.headers);
    const seen: { workspaceId?: string } = {};
    let answer: PlainAnswer & { errorCode?: string };
    try {
      answer = await answerAssess(req, headers, seen);
    } catch (err) {
      logger().error({ err, method: "POST", route: ROUTE }, "unhandled error in the REST API");
      span?.setStatus({ code: 2 });
      span?.end();
      throw err;
    }
    const clientId = clientRequestId(headers);
    if (clientId) answer.headers["x-client-request-id"] = clientId;
    recordRequest(
      {
        method: "POST",
        route: ROUTE,
        routed: true,
        status: answer.status,
        seconds: (performance.now() - started) / 1000,
        requestId: answer.headers["x-request-id"],
        clientRequestId: clientId,
        workspaceId: seen.workspaceId,
        errorCode: answer.errorCode,
      },
      span,
    );
    const { errorCode: _, ...plain } = answer;
    return plain;
  });
}

async function answerAssess(
  req: PlainRequest,
  headers: Pick<Headers, "get">,
  seen: { workspaceId?: string },
): Promise<PlainAnswer & { errorCode?: string }> {
  const requestId = newId("req");
  // As the route answers (server/api/http/respond.ts): the starting headers, the procedure's own (on an error, not
  // the quota headers: a refused request consumed nothing), the error's own, and the JSON type.
  const failed = (err: unknown, own: AnswerHeaders | null, refund: PlainAnswer["undelivered"]) => {
    const out = new AnswerHeaders(startingHeaders(requestId));
    copyProcedureHeaders(own, out, "error");
    const { status, body, headers: extra } = errorParts(err, requestId, "rest");
    for (const [k, v] of Object.entries(extra)) out.set(k, v);
    out.set("content-type", JSON_TYPE);
    return {
      status,
      headers: out.toRecord(),
      body: JSON.stringify(body),
      undelivered: refund,
      errorCode: body.error.code,
    };
  };

  let db: Db;
  try {
    db = await getDb();
  } catch (err) {
    return failed(err, null, null);
  }
  // The body as the route assembles it: a problem travels to the ladder's validation step (handler.ts).
  const read = jsonBodyOf(req.body, headers.get("content-type"));
  const input: Record<string, unknown> = read.ok ? (read.value ?? {}) : { [INVALID_INPUT_MARKER]: read.problem };
  const resHeaders = new AnswerHeaders();
  const charge: { current: Charge | null } = { current: null };
  let principal: Promise<Principal> | null = null;
  const authenticate = (how?: "cached" | "fresh"): Promise<Principal> => {
    if (principal && how !== "fresh") return principal;
    principal = authenticateRestKeyOrThrow(db, headers, {
      procedure: ASSESS_PROCEDURE,
      originByConfig: true,
      read: how,
    }).then((p) => ((seen.workspaceId = p.workspaceId), p));
    return principal;
  };
  try {
    const data = await ladder({ db, requestId, resHeaders, charge, authenticate }, input);
    const out = new AnswerHeaders(startingHeaders(requestId));
    copyProcedureHeaders(resHeaders, out, "success");
    out.set("content-type", JSON_TYPE);
    return {
      status: 200,
      headers: out.toRecord(),
      body: JSON.stringify(data),
      undelivered: undeliveredRefund(db, charge),
    };
  } catch (err) {
    return failed(err, resHeaders, undeliveredRefund(db, charge));
  }
}

interface DoorContext {
  db: Db;
  requestId: string;
  resHeaders: AnswerHeaders;
  charge: { current: Charge | null };
  authenticate: (how?: "cached" | "fresh") => Promise<Principal>;
}

/** server/api/trpc.ts's ladder for a metered procedure, step by step, for this one procedure. */
async function ladder(ctx: DoorContext, input: Record<string, unknown>): Promise<AssessResult> {
  const requires = meteredRequirement(assessMetering);
  const judge: Judge<Principal> = {
    authenticate: ctx.authenticate,
    refusalOf: (p) => requirementRefusal(requires, p, async () => input),
  };
  // `authenticated`: the caller, the refusal its requirements give, and from here on every answer is counted.
  const { principal, refusal } = await authenticateCaller(judge, { metered: true, prepaid: false });
  const note = (status: number, code?: string) => noteOutcome(ctx, principal, ASSESS_PROCEDURE, status, code);
  if (refusal) {
    note(refusal.status, refusal.appCode);
    throw refusal;
  }
  let result: { ok: true; data: AssessResult } | { ok: false; error: unknown };
  try {
    result = { ok: true, data: await admitted(ctx, judge, principal, input) };
  } catch (error) {
    result = { ok: false, error };
  }
  if (!result.ok) {
    const late = await refusalAfterFailure(principal, judge);
    if (late) {
      note(late.status, late.appCode);
      throw late;
    }
    const { status, body } = toErrorBody(result.error);
    note(status, body.error.code);
    throw result.error;
  }
  note(200);
  return result.data;
}

/**
 * Workspaces whose allowance this process last found spent, and when. For a while after, their assessments reserve
 * without the velocity read: a caller that keeps calling past its allowance then costs a refused reservation, as on
 * every other route, not a velocity read thrown away each time. Once one is granted again, it reads its velocity
 * after the reservation (as the route does) and the next ones carry the read again.
 */
const spentAt = new Map<string, number>();
const SPENT_MS = 10_000;
/** Entries are a few dozen bytes; past this many workspaces the map starts over rather than grow. */
const MAX_SPENT = 10_000;

function noteSpent(workspaceId: string): void {
  if (spentAt.size >= MAX_SPENT) spentAt.clear();
  spentAt.set(workspaceId, Date.now());
}

/** Whether the door's next assessment of the workspace reads its velocity in the reservation's statement. */
export function carriesVelocityRead(workspaceId: string, now = Date.now()): boolean {
  const spent = spentAt.get(workspaceId);
  return spent === undefined || now - spent > SPENT_MS;
}

/** From `rejectUnreadableInput` to the work: input checks, the reservation, the assessment, its history entry. */
async function admitted(
  ctx: DoorContext,
  judge: Judge<Principal>,
  principal: Principal,
  input: Record<string, unknown>,
): Promise<AssessResult> {
  if (INVALID_INPUT_MARKER in input) throw new AppError("INVALID_REQUEST", String(input[INVALID_INPUT_MARKER]));
  const problem = screenInput(input, ASSESS_FREE_TEXT) ?? unknownFieldsProblem(input, ASSESS_FIELDS);
  if (problem) throw new AppError("INVALID_REQUEST", problem);
  let typed;
  try {
    typed = await assessMetering.input.parseAsync(input);
  } catch (cause) {
    // As tRPC's input step refuses it (its message is made from the schema's issues: server/errors.ts).
    throw new TRPCError({ code: "BAD_REQUEST", cause });
  }
  const units = 1;
  // The velocity read runs in the reservation's statement: one round trip for both (the route reads it after).
  const workspaceId = principal.workspaceId;
  const alongside = carriesVelocityRead(workspaceId) ? velocityAlongside(workspaceId, typed) : null;
  let admission;
  try {
    admission = await admitCharged<AssessInput>({ ...ctx, principal }, assessMetering, units, judge, alongside?.read);
  } catch (err) {
    if (err instanceof AppError && err.appCode === "QUOTA_EXCEEDED") noteSpent(workspaceId);
    throw err;
  }
  spentAt.delete(workspaceId);
  const { principal: p, quota } = admission;
  let result: { ok: true; data: AssessResult } | { ok: false; error: unknown };
  try {
    const velocity = alongside && quota.read ? alongside.velocity(quota.read) : undefined;
    result = {
      ok: true,
      data: await assess(ctx.db, { workspaceId: p.workspaceId, requestId: ctx.requestId, request: typed, velocity }),
    };
  } catch (error) {
    result = { ok: false, error };
  }
  // What it could not answer (a 5xx after admission) goes back, as on every metered route (trpc.ts givenBackOf).
  let back = givenBackOf<AssessInput>(assessMetering, typed, result, units);
  if (back && !(await giveBack(ctx, admission.charge, back, quota))) back = null;
  rememberCharged<AssessInput>(ctx, assessMetering, typed, result, units, p, back);
  if (!result.ok) throw result.error;
  return result.data;
}
