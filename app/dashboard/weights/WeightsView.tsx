"use client";
// Signal weights (GET /v1/weights and POST /v1/weights/mode through the dashboard's tRPC endpoint): which set scores this
// workspace's assessments, the labels behind the learned set, each signal's default and learned weight side by
// side, and the owner's switch, refused in words until enough labelled assessments exist.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { signalName } from "../_components/signal-names";
import { useTRPC } from "../_components/trpc";
import "./weights.css";
import { BusyButton } from "../_components/BusyButton";

const signed = (n: number | null) => (n === null ? "—" : n > 0 ? `+${n}` : String(n));

export function WeightsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const weights = useQuery(trpc.weights.get.queryOptions({}));
  const [confirming, setConfirming] = useState<"default" | "learned" | null>(null);
  // A switch made takes the question (and the button pressed in it) away: the focus goes to the switch button, which
  // comes back saying the way back.
  const refocus = useRef(false);
  const switchButton = (el: HTMLButtonElement | null) => {
    if (el && refocus.current) {
      refocus.current = false;
      el.focus();
    }
  };
  const setMode = useMutation(
    trpc.weights.setMode.mutationOptions({
      onSuccess: (data) => {
        refocus.current = true;
        setConfirming(null);
        queryClient.setQueryData(trpc.weights.get.queryKey({}), data);
      },
    }),
  );
  const role = overview.data?.role;
  const w = weights.data;
  const other = w?.weights === "learned" ? "default" : "learned";
  const changed = w
    ? w.signals.filter((s) => s.learned_weight !== null && s.learned_weight !== s.default_weight).length
    : 0;

  return (
    <>
      <h1>Signal weights</h1>
      <p className="muted small">
        Every assessment adds up the weights of the signals it found. The defaults suit most traffic; once you label
        outcomes (the buttons under an answer on <Link href="/dashboard/assess">Assess an event</Link>, or{" "}
        <code>POST /v1/assess/&#123;request_id&#125;/outcome</code>), weights learned from your own labels can score
        your assessments instead. Every score still lists each signal with the weight it used.
      </p>
      <ReadFailed what="The signal weights" query={weights} />
      {weights.isPending ? (
        <p className="muted" role="status">
          Loading weights…
        </p>
      ) : null}
      {w ? (
        <>
          <section className="card weights-summary" aria-label="Summary" data-testid="weights-summary">
            <div>
              <span className="muted small">Scoring with</span>
              <strong data-testid="weights-in-use">
                {w.weights === "learned" ? "Learned weights" : "Default weights"}
              </strong>
              {w.fitted_at ? <span className="muted small">fitted {formatUtc(w.fitted_at)}</span> : null}
            </div>
            <div>
              <span className="muted small">Labelled assessments</span>
              <strong data-testid="weights-labelled">{w.labelled.total.toLocaleString("en")}</strong>
              <span className="muted small">
                {w.labelled.fraud} fraud · {w.labelled.legitimate} legitimate · {w.minimum.labels} needed
              </span>
            </div>
            <div>
              <span className="muted small">Learned differs from default</span>
              <strong>{w.minimum.met ? `${changed} signal${changed === 1 ? "" : "s"}` : "—"}</strong>
            </div>
          </section>

          <section className="card">
            <h2>Switch</h2>
            {!w.minimum.met ? (
              <p className="notice" data-testid="weights-minimum">
                {/* The API's message already says the default weights stay in use. */}
                {w.minimum.message ??
                  "Not enough labelled assessments yet. Until then the default weights score every assessment."}
              </p>
            ) : null}
            {overview.error ? (
              <ReadFailed what="Your role in this workspace" query={overview} />
            ) : role === undefined ? (
              <p className="muted small">Loading your role…</p>
            ) : null}
            {role && role !== "owner" ? (
              <p className="muted small">Only workspace owners switch the weights; you can see them here.</p>
            ) : null}
            {role === "owner" && (other === "default" || w.minimum.met) ? (
              confirming ? (
                <ConfirmQuestion
                  label="Switch the weights"
                  testId="weights-confirm"
                  question={
                    <span>
                      {confirming === "learned"
                        ? "Fit the weights to your labels now and score every later assessment with them?"
                        : "Go back to the default weights for every later assessment?"}
                    </span>
                  }
                  onCancel={() => setConfirming(null)}
                >
                  <BusyButton
                    type="button"
                    className="btn btn-primary"
                    busy={setMode.isPending}
                    busyLabel="Switching…"
                    onClick={() => setMode.mutate({ mode: confirming })}
                  >
                    Yes, switch
                  </BusyButton>
                </ConfirmQuestion>
              ) : (
                <p className="row">
                  <button
                    type="button"
                    className="btn btn-primary"
                    onClick={() => setConfirming(other)}
                    ref={switchButton}
                    data-testid="weights-switch"
                    data-confirm-trigger
                  >
                    {other === "learned" ? "Use learned weights" : "Go back to default weights"}
                  </button>
                  {w.weights === "learned" && w.minimum.met ? (
                    <button type="button" className="btn" onClick={() => setConfirming("learned")}>
                      Refit with the newest labels
                    </button>
                  ) : null}
                </p>
              )
            ) : null}
            <ErrorNote error={setMode.error} />
          </section>

          <section className="card">
            <h2>Weights by signal</h2>
            {w.signals.length === 0 ? (
              <p className="muted">No signals recorded yet.</p>
            ) : (
              <div
                className="table-scroll"
                tabIndex={0}
                role="region"
                aria-label="Weights by signal (scrolls sideways)"
              >
                <table className="weights-table cards" data-testid="weights-table">
                  <thead>
                    <tr>
                      <th scope="col">Signal</th>
                      <th scope="col">Default</th>
                      <th scope="col">Learned</th>
                      <th scope="col">In use</th>
                      <th scope="col">Labels (fraud / legitimate)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {w.signals.map((s) => (
                      <tr key={s.code} data-testid="weights-row" data-code={s.code}>
                        <th scope="row" data-label="Signal">
                          {signalName(s.code) ? <span className="signal-name">{signalName(s.code)}</span> : null}
                          <code className="muted">{s.code}</code>
                        </th>
                        <td data-label="Default">{signed(s.default_weight)}</td>
                        <td data-label="Learned">{signed(s.learned_weight)}</td>
                        <td data-label="In use">
                          <strong>{signed(s.weight_in_use)}</strong>
                        </td>
                        <td data-label="Labels (fraud / legitimate)">
                          {s.labels} ({s.fraud} / {s.legitimate})
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}
