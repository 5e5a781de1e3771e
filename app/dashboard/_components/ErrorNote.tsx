"use client";
// Shows a failed call in words; a refusal that a plan change would lift links to the plan page. The API's error
// code is not shown (a user view carries no raw codes): it stays on the element as data-code for tests and support
// tools. API routes the message names are said as the dashboard page that does the same (dashboard-words.ts), and its
// `code` spans (field names such as `bin`) are shown as code. A call that never reached the service (offline, a
// proxy's error page, an answer that is not the service's) carries only the browser's exception text ("Failed to
// fetch", "Unexpected token '<'…"): it is said in words instead, with Retry when a query failed with it.
import { QueryClientContext } from "@tanstack/react-query";
import Link from "next/link";
import { useContext } from "react";
import { dashboardMessage } from "./dashboard-words";
import { DocText } from "./DocText";

type MaybeTrpcError = { name?: string; message?: string; data?: { appCode?: string } | null } | null | undefined;

const PLAN_CODES = new Set(["CAPABILITY_REQUIRED", "BULK_LOOKUPS_REQUIRED", "QUOTA_EXCEEDED"]);

export const UNREACHABLE_MESSAGE = "Could not reach the service. Check your connection and try again.";

export function errorCode(err: unknown): string | null {
  return (err as MaybeTrpcError)?.data?.appCode ?? null;
}

/**
 * Whether a failure never got an answer from the service: every answer of ours carries an error code (the tRPC error
 * formatter adds it), so a tRPC client error without one came from the network or from something in between, as
 * does a fetch's TypeError or a JSON parse's SyntaxError. Errors made in the page itself keep their own words.
 */
export function isUnreachable(err: unknown): boolean {
  if (!err || typeof err !== "object" || errorCode(err)) return false;
  return (err as MaybeTrpcError)?.name === "TRPCClientError" || err instanceof TypeError || err instanceof SyntaxError;
}

export function ErrorNote({
  error,
  words = (m) => m,
  id,
}: {
  error: unknown;
  /** The service's message as this page says it (its form's labels for the API's field names: field-words.ts). */
  words?: (message: string) => string;
  /** The id a form's field names in its aria-describedby (field-problem.ts); the note can then take focus. */
  id?: string;
}) {
  // Outside the dashboard's query provider (none today) there is simply no Retry.
  const queryClient = useContext(QueryClientContext);
  if (!error) return null;
  const e = error as MaybeTrpcError;
  const code = e?.data?.appCode;
  if (isUnreachable(error)) {
    // Retry is offered for a query that failed this way (not for a form's submission, which is sent again by
    // submitting it) and fetches every failed query on the page, as they all failed for the same reason.
    const retry = queryClient
      ?.getQueryCache()
      .findAll({ type: "active" })
      .some((q) => q.state.error === error);
    return (
      <p
        className="error"
        role="alert"
        data-testid="error-note"
        data-code="UNREACHABLE"
        id={id}
        tabIndex={id ? -1 : undefined}
      >
        {UNREACHABLE_MESSAGE}{" "}
        {retry ? (
          <button
            type="button"
            className="btn"
            onClick={() =>
              void queryClient?.refetchQueries({ type: "active", predicate: (q) => q.state.status === "error" })
            }
          >
            Retry
          </button>
        ) : null}
      </p>
    );
  }
  return (
    <p
      className="error"
      role="alert"
      data-testid="error-note"
      data-code={code ?? undefined}
      id={id}
      tabIndex={id ? -1 : undefined}
    >
      {e?.message ? <DocText text={dashboardMessage(words(e.message))} /> : "Something went wrong."}
      {code && PLAN_CODES.has(code) ? (
        <>
          {" "}
          <Link href="/dashboard/plan">See the plans</Link>
        </>
      ) : null}
    </p>
  );
}

/**
 * Whether reading again may work: the service was not reached, or answered that it is busy or failed (5xx, 429).
 * A refusal that stays (signed out, a plan's capability, not found) is not: a Retry beside it could never work.
 */
export function isTransient(err: unknown): boolean {
  if (!err) return false;
  if (isUnreachable(err)) return true;
  const status = (err as { data?: { httpStatus?: number } | null })?.data?.httpStatus;
  return status === undefined || status >= 500 || status === 429;
}

/**
 * A read of a page's part that failed, said as "<what> could not be read." with Retry, never as that part's empty
 * state ("No runs yet."). A refusal that reading again cannot lift is said in the service's words by ErrorNote
 * instead (with the plan link where a plan would lift it), without a Retry that could never work.
 */
export function ReadFailed({
  what,
  error,
  onRetry,
  className = "error",
  testId,
}: {
  /** The part, as the sentence's subject: "The timeline". */
  what: string;
  error: unknown;
  onRetry: () => void;
  className?: string;
  testId?: string;
}) {
  if (!error) return null;
  if (!isTransient(error)) return <ErrorNote error={error} />;
  return (
    <p className={className} role="alert" data-testid={testId}>
      {what} could not be read.{" "}
      <button type="button" className="btn" onClick={onRetry}>
        Retry
      </button>
    </p>
  );
}
