"use client";
// Shows a failed call in words; a refusal that a plan change would lift links to the plan page. The API's error
// code is not shown (a user view carries no raw codes): it stays on the element as data-code for tests and support
// tools. API routes the message names are said as the dashboard page that does the same (dashboard-words.ts), and its
// `code` spans (field names such as `bin`) are shown as code. A call that never reached the service (offline, a
// proxy's error page, an answer that is not the service's) carries only the browser's exception text ("Failed to
// fetch", "Unexpected token '<'…"): it is said in words instead, with Retry when a query failed with it.
import { QueryClientContext } from "@tanstack/react-query";
import Link from "next/link";
import { useContext, useEffect, useRef, useState } from "react";
import { BusyButton } from "./BusyButton";
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
 * The dashboard's one way to say that a read failed (a page's list, a panel's figures), when reading again may work:
 * "<what> could not be read." in words, plus "Could not reach the service. ..." when nothing answered (offline, a
 * proxy's page), never the service's own message (it may carry an operator's hint) nor a code (kept as data-code for
 * tests and support tools), never the part's empty state ("No runs yet.") nor a loading state that never ends. Its
 * Retry re-runs the read (its `query`'s refetch, or `onRetry` for a part that reads more than one) and the page's other failed reads, says "Retrying…" while the read it asked for
 * runs (BusyButton: it stays focusable; a read that runs again on its own, a poll or a refresh after a change, leaves
 * it saying "Retry"), and once the part has been read and the note has gone with the pressed button, puts the
 * keyboard's focus on the heading of the region the note was in (focusAfterRetry), not on <body>; when the read
 * failed again, on the Retry of the note that comes back in its place. A refusal that reading again cannot lift (signed out, a
 * plan's capability, not found) is said in the service's words by ErrorNote instead (with the plan link where a plan
 * would lift it), without a Retry that could never work.
 */
export function ReadFailed(
  props: {
    /** The part, as the sentence's subject: "The timeline". */
    what: string;
    /** A lasting refusal's message as the page says it (ErrorNote's words). */
    words?: (message: string) => string;
    className?: string;
    testId?: string;
  } & (
    | {
        /** The one read the part shows: its error, its refetch on Retry, its isFetching as `retrying`. */
        query: { error: unknown; refetch: () => unknown; isFetching: boolean };
        error?: never;
        onRetry?: never;
        retrying?: never;
      }
    | {
        query?: never;
        error: unknown;
        onRetry: () => unknown;
        /** The read runs again (the query's isFetching): after a press of Retry, it says so and ignores presses. */
        retrying?: boolean;
      }
  ),
) {
  const { what, words, className = "error", testId, query } = props;
  const error = query ? query.error : props.error;
  const onRetry = query ? () => query.refetch() : props.onRetry!;
  const retrying = query ? query.isFetching : (props.retrying ?? false);
  const queryClient = useContext(QueryClientContext);
  const note = useRef<HTMLParagraphElement>(null);
  // Where the note was when its Retry was pressed with the keyboard's focus on it: the focus goes back there.
  const pressed = useRef<Element | null>(null);
  const shown = Boolean(error) && isTransient(error);
  // Whether this Retry was pressed and its read has not ended yet: only then does it say "Retrying…". A page that
  // polls, or refreshes a list after a change, runs the read again without anyone asking; the label then stays.
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!retrying) setAsked(false);
  }, [retrying, error]);
  useEffect(() => {
    if (shown || !pressed.current) return;
    const from = pressed.current;
    pressed.current = null;
    focusAfterRetry(from, what);
  }, [shown, what]);
  // A Retry that failed again leaves the note where it was: a later Retry elsewhere is not this one's to follow.
  useEffect(() => {
    if (shown && !retrying) pressed.current = null;
  }, [shown, retrying]);
  // A page that draws something else in the note's place once the read answers unmounts the note itself.
  const whatNow = useRef(what);
  whatNow.current = what;
  useEffect(
    () => () => {
      if (pressed.current) focusAfterRetry(pressed.current, whatNow.current);
    },
    [],
  );
  if (!error) return null;
  if (!shown) return <ErrorNote error={error} words={words} />;
  const unreachable = isUnreachable(error);
  return (
    <p
      ref={note}
      className={`read-failed ${className}`}
      role="alert"
      data-testid={testId}
      data-read-failed={what}
      data-code={unreachable ? "UNREACHABLE" : (errorCode(error) ?? undefined)}
    >
      {what} could not be read.{unreachable ? ` ${UNREACHABLE_MESSAGE}` : null}{" "}
      <BusyButton
        type="button"
        className="btn"
        busy={retrying && asked}
        busyLabel="Retrying…"
        onClick={() => {
          setAsked(true);
          const here = note.current;
          pressed.current = here && here.contains(document.activeElement) ? (here.parentElement ?? here) : null;
          void onRetry();
          // The page's other failed reads most likely failed for the same reason (the service or the network was
          // out): they are read again too, so one Retry brings the whole page back (a read already running again is
          // joined, not restarted). Not a lasting refusal, nor a lookup that uses a unit (meta.metered): that one
          // runs again only on its own Retry.
          void queryClient?.refetchQueries(
            {
              type: "active",
              predicate: (q) => q.state.status === "error" && isTransient(q.state.error) && !q.meta?.metered,
            },
            { cancelRefetch: false },
          );
        }}
      >
        Retry
      </BusyButton>
    </p>
  );
}

const REGIONS = "section, article, dialog, .card, [role=region], [role=dialog], main";

/**
 * After a Retry, the pressed button is gone with its note (a read that never answered before shows its loading state
 * as soon as it runs again) and the browser has put the focus on <body> (Chromium: on the nearest focusable element
 * around it, the page's main). It goes to the heading of the region the note was in (its card, section, article or
 * dialog; one without a heading gives way to the region around it, up to the page's main and its title), made
 * focusable for this (tabindex -1). While the page redraws (a loading state with no heading yet, the other parts read
 * again) the focus is put back there whenever it drops again, for a few seconds (15 at most); never once it is somewhere else, and
 * never after a click or a key (the person moved on: a click on the page's text puts the focus on its main). When the
 * read fails again, the part's note comes back with a new Retry (the one pressed went with the note): the focus goes
 * to it, from the heading or from wherever it dropped, so the person is where they were and can press it again.
 */
function focusAfterRetry(from: Element, what: string) {
  const main = document.getElementById("main");
  if (!main) return;
  let placed: HTMLElement | null = null;
  const place = () => {
    const active = document.activeElement;
    const dropped =
      !active || !active.isConnected || active === document.body || active === main || active.contains(from);
    const again = [...(from.isConnected ? from : main).querySelectorAll<HTMLElement>("[data-read-failed]")]
      .find((n) => n.dataset.readFailed === what)
      ?.querySelector<HTMLElement>("button");
    if (again) {
      if (dropped || (placed && active === placed)) {
        again.focus();
        stop();
      }
      return;
    }
    if (!dropped) return;
    let region: Element | null | undefined = (from.isConnected ? from : main).closest(REGIONS);
    let heading: HTMLElement | null = null;
    while (region && !heading) {
      heading = region.querySelector<HTMLElement>("h1, h2, h3, h4");
      region = region.parentElement?.closest(REGIONS);
    }
    if (!heading) return;
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus();
    placed = heading;
  };
  const watch = new MutationObserver(place);
  // A click or a key anywhere after the Retry is the person moving on (a click on the page's text focuses its main,
  // which would otherwise read as dropped): the focus is theirs from then on.
  function stop() {
    watch.disconnect();
    document.removeEventListener("pointerdown", stop, true);
    document.removeEventListener("keydown", stop, true);
  }
  document.addEventListener("pointerdown", stop, true);
  document.addEventListener("keydown", stop, true);
  watch.observe(main, { childList: true, subtree: true });
  // Long enough for a read that fails again slowly (a source's timeout); a click or a key ends it sooner.
  setTimeout(stop, 15_000);
  requestAnimationFrame(place);
}

/**
 * ReadFailed's Retry for a query: a list whose next page failed reads that page again (its first pages stay on
 * screen), any other read is read again.
 */
export function retryRead(q: {
  refetch: () => Promise<unknown>;
  isFetchNextPageError?: boolean;
  fetchNextPage?: () => Promise<unknown>;
}): () => Promise<unknown> {
  return () => (q.isFetchNextPageError && q.fetchNextPage ? q.fetchNextPage() : q.refetch());
}
