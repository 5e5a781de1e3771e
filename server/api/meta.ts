// A procedure's metadata in four typed parts (issue 44, item 5), beside trpc-to-openapi's `openapi`:
//   MetaContract  what the procedure answers besides its JSON 200: its own error codes, 202, other media types,
//                 which input fields are free text, and input that must never be sent (read by the document,
//                 server/api/rest/openapi.ts; the input step, ladder.ts validateInput)
//   MetaBody      the body a door reads: its size, a raw-body field, CSV (server/api/rest/body-rules.ts, for both REST
//                 doors and the dashboard's /api/trpc)
//   MetaCharging  how it is charged: a metered lookup's capability, ledger name and bulk rule, or a job's cost sentence;
//                 the cost itself is the charging table's (server/api/charging.ts writes it in as the router is built)
//   MetaAccess    who may call beyond an active key or member, and the declared burst limit (the ladder enforces both)
// Each reader takes only the part it reads (contract.ts errorCodesOf, contract-text.ts accessSentence, body-rules.ts,
// charging.ts applyCharging). The parts' fields sit side by side in one object rather than nested under a part's
// name because tRPC merges a builder's meta with a procedure's shallowly: a procedure that adds its own `errors` to
// a builder that declared `freeText` (rulesProcedure) would otherwise lose the builder's half of the part.
// Types only: client components (the console, the cost labels) read the same parts.
import type { OpenApiMeta } from "trpc-to-openapi";
import type { AppError, ErrorCode } from "../errors";
import type { Capability } from "../plans/catalog";
import type { Requirement } from "./contract";
import type { Caller } from "./contract-text";
import type { FreeTextPaths } from "./input-screen";
import type { RateLimit } from "./ladder";

/** Content types a raw-body route documents for its body (`rawBody.media`). */
export type RawBodyMedia =
  | "text/plain"
  | "application/json"
  | "application/octet-stream"
  | "application/x-yaml"
  | "application/x-www-form-urlencoded";

export interface MetaContract {
  /** Codes the procedure's own work can answer beyond the ladder's; documented from ERROR_STATUS (contract.ts). */
  errors?: readonly ErrorCode[];
  /**
   * When the REST answer is 202 Accepted instead of 200 (server/api/rest/handler.ts): `always` (a bulk job), or
   * `when-running` (a scan that outlasts its wait). The OpenAPI document documents the 202 from it.
   */
  accepted?: "always" | "when-running";
  /** Media type of a non-JSON 200 body (the procedure returns a string and sets Content-Type). */
  produces?: "text/csv" | "text/plain";
  /**
   * Media types the 200 may also come in besides JSON, chosen by the request's Accept header: the procedure then
   * returns the rendered text as a string and sets Content-Type (the OpenAPI document lists each).
   */
  alsoProduces?: readonly ("application/sarif+json" | "text/csv")[];
  /** Free-text input fields that may hold tabs and line breaks (see input-screen.ts); all others are identifiers. */
  freeText?: FreeTextPaths;
  /**
   * Input that must never be sent (a full card number in POST /assess's `payment`): its refusal, or null, asked on the
   * read input before the input screen and the unknown-field check, so that it wins over those problems of the same
   * input (ladder.ts validateInput). A body that could not be read at all is refused first.
   */
  neverSent?: (input: unknown) => AppError | null;
}

export interface MetaBody {
  /**
   * On the REST API the request body is not JSON but the raw text of one input field (a lockfile, whatever its
   * Content-Type), read up to `maxBytes`; the other input fields come from the query (server/api/rest/body-rules.ts).
   * The dashboard's tRPC door sends the same field in its JSON input. `media` names the content types the document
   * lists for it (default: those of a lockfile or SBOM).
   */
  rawBody?: { field: string; maxBytes: number; media?: readonly RawBodyMedia[] };
  /**
   * REST only: a body sent with Content-Type `text/csv` is the text of this input field (a CSV file uploaded as it
   * is, other fields from the query); any other body is JSON as usual.
   */
  csvBody?: { field: string };
  /** The largest body the route reads, on both doors, when it needs more than the default 1,000,000 bytes. */
  maxBodyBytes?: number;
}

export interface MetaCharging {
  /** A metered lookup (meteredProcedure writes it): one reservation of units per request. */
  metered?: {
    capability: Capability;
    endpoint: string;
    /** In words, from the charging table (server/api/charging.ts applyCharging). */
    cost: string;
    bulk: "never" | "multiple-targets" | "always";
    rateLimited?: boolean;
    /** Answers decided from the request alone, before admission and free ("404 NOT_FOUND for ..."; input-decisions.ts). */
    free?: string[];
    /** Their codes, which the route's documented errors include without its `errors` naming them (contract.ts). */
    decided?: readonly ErrorCode[];
  };
  /** How a procedure outside meteredProcedure charges lookup units (bulk jobs), for the docs' cost sentence. */
  charges?: string;
}

export interface MetaAccess {
  /** What the caller needs beyond an active key or membership (contract.ts); checked by `authenticated`. */
  requires?: Requirement;
  /** Who may call, when the builder allows more or less than any active key or member (contract-text.ts `Caller`). */
  who?: Caller;
  /**
   * A burst limit per workspace, declared here and enforced after the input's schema: a metered lookup's in
   * chargeAndRun, before reserving (no unit consumed); any other procedure's by `.use(withinBurstLimit)` after its
   * `.input()` (server/api/trpc.ts; test/foundation/burst-limit-order.test.ts fails when a declaring procedure lacks
   * it). Over it, 429 RATE_LIMITED with Retry-After. The docs' rate-limit sentence and the RATE_LIMITED response come
   * from it.
   */
  rateLimit?: RateLimit;
}

/** Procedure metadata: trpc-to-openapi's `openapi`, and the four parts the pipeline and the docs read. */
export type Meta = OpenApiMeta & MetaContract & MetaBody & MetaCharging & MetaAccess;
