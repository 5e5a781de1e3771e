"use client";
// The outcome of an assessed request, below its answer: the saved label (the newest outcome event of the request)
// and buttons to set it (the procedure of POST /v1/assess/{request_id}/outcome); labels measure rules and the score.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "../../../server/api/root";
import { ErrorNote, ReadFailed } from "./ErrorNote";
import { formatUtc } from "./format";
import { useTRPC } from "./trpc";
import { BusyButton } from "./BusyButton";

type Outcome = inferRouterInputs<AppRouter>["assessment"]["outcome"]["outcome"];
/** Every label the procedure takes, in words (typed against it, so a new label cannot be left out). */
const OUTCOME_TEXT: Record<Outcome, string> = {
  fraud: "Fraud",
  chargeback: "Chargeback",
  account_takeover: "Account takeover",
  abuse: "Abuse",
  legitimate: "Legitimate",
};
const OUTCOMES = Object.keys(OUTCOME_TEXT) as Outcome[];

/** What became of the request: the saved label (the newest outcome event of the request) and buttons to set it. */
export function OutcomeButtons({ requestId }: { requestId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const saved = useQuery(
    trpc.workspace.events.queryOptions({ query: requestId, type: "assessment.outcome", limit: 1 }),
  );
  const label = useMutation(
    trpc.assessment.outcome.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.workspace.events.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.workspace.analyticsSummary.pathKey() });
      },
    }),
  );
  const latest = saved.data?.items[0];
  const fromEvent = (latest?.data as { outcome?: Outcome } | undefined)?.outcome;
  const current = label.data?.outcome ?? fromEvent ?? null;
  const at = label.data?.labelled_at ?? latest?.created_at;
  const unread = !label.isPending && !current && saved.isError;
  return (
    <div className="card" data-testid="outcome">
      <h2>Outcome</h2>
      <p className="muted small">
        What did this request turn out to be? Labels measure the precision of your rules and of the score; a new label
        replaces the old one.
      </p>
      <div className="row" role="group" aria-label="Outcome label">
        {OUTCOMES.map((o) => (
          <BusyButton
            key={o}
            type="button"
            className={`btn${current === o ? " btn-primary" : ""}`}
            aria-pressed={current === o}
            busy={label.isPending}
            onClick={() => label.mutate({ request_id: requestId, outcome: o })}
            data-testid={`outcome-${o}`}
          >
            {OUTCOME_TEXT[o]}
          </BusyButton>
        ))}
      </div>
      {/* "Not labelled yet." only when the saved label was read and there is none: a failed read says so, with Retry
          when reading again may work, or in the service's words when it cannot (ReadFailed). The status line stays
          in the page, empty meanwhile: a live region taken out and put back is not reliably read out, so what it
          says after a Retry would go unsaid. */}
      {unread ? (
        <ReadFailed what="The saved label" query={saved} className="small error" testId="outcome-read-failed" />
      ) : null}
      <p className="small" role="status" data-testid="outcome-saved">
        {unread
          ? ""
          : label.isPending
            ? "Saving…"
            : current
              ? `Labelled “${OUTCOME_TEXT[current]}”${at ? `, ${formatUtc(at)}` : ""}.`
              : saved.isPending
                ? ""
                : "Not labelled yet."}
      </p>
      <ErrorNote error={label.error} />
    </div>
  );
}
