// POST /v1/assess through a plain door. The assessment sits in every login and checkout of a customer's own flow,
// so its request path is the product's hottest: the production server (scripts/rest-direct.mjs) hands it here with
// the body already read from node:http, and gets its status, headers and body back as plain values. No WHATWG
// Request, Headers, Response or streams; no tRPC caller, whose middleware levels copy their options and context;
// no second pass of the answer through its output schema: assess() builds it in the schema's shape and key order,
// and the test harness (test/harness.ts) checks that every answer of the suite is byte for byte the schema's parse.
//
// It is a door, not a ladder: input assembly and the 1 MB cap as server/api/rest/handler.ts, then the admission
// ladder's own sequences (server/api/ladder.ts: admitCaller, validateInput, parseInput, chargeAndRun), the same
// observation (server/operate/observe.ts) and the same refund of an undelivered answer. What the route does not do:
// the velocity read runs in the reservation's statement (the ladder's `read`, velocityAlongside), one round trip
// fewer than the route's read after its reservation; it sees the events committed before the reservation statement
// began, so requests that race each other may count one another differently through the two doors.
// test/assessment/assess-door.test.ts sends the same requests through this door and through the route's handler
// and compares every answer and what it left in the store; the test harness sends every POST /v1/assess of the
// suite through this door, as the production server does.
import { assess, velocityAlongside } from "../../assessment/assess";
import type { AssessResult } from "../../assessment/schemas";
import { getDb, type Db } from "../../db/client";
import { newId } from "../../ids";
import { authenticateRestKeyOrThrow } from "../../keys/publishable";
import { observedPlainAnswer } from "../../operate/observe";
import { logger } from "../../operate/log";
import type { Charge, Principal } from "../context";
import { copyProcedureHeaders, JSON_TYPE, jsonBodyOf, startingHeaders } from "../http/respond";
import { declaredFieldsOfSchema } from "../input-fields";
import {
  admitCaller,
  carriesReadAlongside,
  chargeAndRun,
  INVALID_INPUT_MARKER,
  parseInput,
  undeliveredRefund,
  validateInput,
  type Outcome,
} from "../ladder";
import { ASSESS_FREE_TEXT, assessMetering } from "../routers/assessment/assess";
import { meteredRequirement } from "../trpc";
import { MAX_BODY_BYTES } from "./handler";
import { AnswerHeaders, plainErrorAnswer } from "./plain-answer";
import { answerPlainGet, takesPlainGet } from "./plain-get";

/** Whether the door's next assessment of the workspace reads its velocity in the reservation's statement. */
export const carriesVelocityRead = carriesReadAlongside;

/** The procedure behind the door, as the REST route table and the analytics name it. */
export const ASSESS_PROCEDURE = "assessment.assess";
const ROUTE = "/assess";
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
 * it: body-encoding.ts), any other method or path. A GET is the plain GET door's to decide (plain-get.ts): the
 * production server's one entry (scripts/rest-direct.mjs) takes both doors through these two functions.
 */
export function takesPlainDoor(method: string, url: string, headers: PlainRequest["headers"]): boolean {
  if (method === "GET") return takesPlainGet(method, url, headers);
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

/** Answers POST /v1/assess, observed as the route's answers are (log line, metrics, span, correlation id). */
export function answerPlain(req: PlainRequest): Promise<PlainAnswer> {
  // A GET on any /v1 read route: its own plain door (plain-get.ts).
  if (req.method === "GET") return answerPlainGet(req);
  const headers = headerReader(req.headers);
  return observedPlainAnswer(req, headers, (seen) => {
    seen.route = ROUTE;
    return answerAssess(req, headers, seen);
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
  const failed = (err: unknown, own: AnswerHeaders | null, refund: PlainAnswer["undelivered"]) =>
    plainErrorAnswer(err, requestId, own, refund);

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

/** The ladder's sequences (server/api/ladder.ts) for this one procedure, its work the assessment. */
async function ladder(ctx: DoorContext, input: Record<string, unknown>): Promise<AssessResult> {
  const requires = meteredRequirement(assessMetering);
  const rawInput = async () => input;
  const result = await admitCaller(
    ctx,
    { procedure: ASSESS_PROCEDURE, requires, metered: true, rawInput },
    async (principal): Promise<Outcome> => {
      try {
        validateInput(input, { procedure: ASSESS_PROCEDURE, freeText: ASSESS_FREE_TEXT, declared: ASSESS_FIELDS });
        const typed = await parseInput(assessMetering.input, input);
        // The velocity read runs in the reservation's statement: one round trip for both (the route reads it after).
        const workspaceId = principal.workspaceId;
        const alongside = carriesReadAlongside(workspaceId) ? velocityAlongside(workspaceId, typed) : null;
        return await chargeAndRun(
          ctx,
          assessMetering,
          { procedure: ASSESS_PROCEDURE, typed, principal, requires, rawInput, read: alongside?.read },
          async ({ quota, principal: p }): Promise<Outcome> => {
            try {
              const velocity = alongside && quota?.read ? alongside.velocity(quota.read) : undefined;
              const request = { workspaceId: p.workspaceId, requestId: ctx.requestId, request: typed, velocity };
              return { ok: true, data: await assess(ctx.db, request) };
            } catch (error) {
              return { ok: false, error };
            }
          },
        );
      } catch (error) {
        // As a middleware's throw below `authenticated` becomes a failed result in tRPC.
        return { ok: false, error };
      }
    },
  );
  if (!result.ok) throw result.error;
  return result.data as AssessResult;
}
