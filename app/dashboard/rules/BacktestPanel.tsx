"use client";
// "Test this rule": the draft rule run against this workspace's stored assessments of a chosen range (the same
// procedure as POST /v1/rules/backtest): how many it matches, how the decisions would change, sample requests,
// and from the workspace's outcome labels its precision and recall.
import Link from "next/link";
import { useState } from "react";
import { customBounds, DateRangeFilter, presetSince, type DateRange } from "../_components/DateRangeFilter";
import { formatUtc } from "../_components/format";
import { percent, type BacktestResult } from "./rule-draft";
import { BusyButton } from "../_components/BusyButton";

/** Every preset but "All time": the API tests at most 400 days. */
const OFFER = ["1", "7", "30", "90", "365", "custom"] as const;

export interface BacktestRange {
  since: Date;
  until: Date;
}

/** The chosen range, or a sentence saying what to fix. */
function rangeOf({ range, from, to }: DateRange): BacktestRange | string {
  if (range !== "custom") {
    const until = new Date();
    return { since: presetSince(range, until.getTime())!, until };
  }
  const { since, until } = customBounds(from, to);
  if (!since || !until) return "Choose both dates.";
  return since < until ? { since, until } : "The first date must come before the second.";
}

export function BacktestPanel({
  pending,
  result,
  onRun,
}: {
  pending: boolean;
  result: BacktestResult | undefined;
  onRun: (r: BacktestRange) => void;
}) {
  const [dates, setDates] = useState<DateRange>({ range: "30", from: "", to: "" });
  const [problem, setProblem] = useState<string | null>(null);

  return (
    <section className="backtest" aria-labelledby="backtest-title" data-testid="backtest-panel">
      <h3 id="backtest-title">Test this rule on past assessments</h3>
      <div className="form-row">
        <DateRangeFilter value={dates} onChange={setDates} offer={OFFER} testIdPrefix="backtest" />
        <BusyButton
          type="button"
          className="btn"
          busy={pending}
          busyLabel="Testing…"
          data-testid="backtest-run"
          onClick={() => {
            const r = rangeOf(dates);
            setProblem(typeof r === "string" ? r : null);
            if (typeof r !== "string") onRun(r);
          }}
        >
          Test this rule
        </BusyButton>
      </div>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      <div aria-live="polite">{result ? <BacktestAnswer r={result} /> : null}</div>
    </section>
  );
}

function BacktestAnswer({ r }: { r: BacktestResult }) {
  return (
    <div className="backtest-result" data-testid="backtest-result">
      <p className="small muted">
        {formatUtc(r.since)} to {formatUtc(r.until)} · {r.duration_ms} ms
      </p>
      <div className="stat-grid">
        <div className="stat">
          <span className="stat-label">Assessments</span>
          <strong data-testid="backtest-assessments">{r.assessments}</strong>
        </div>
        <div className="stat">
          <span className="stat-label">Would match</span>
          <strong data-testid="backtest-matched">{r.matched}</strong>
          <span className="small muted">{percent(r.match_rate)}</span>
        </div>
        <div className="stat">
          <span className="stat-label">Precision</span>
          <strong data-testid="backtest-precision">{percent(r.precision)}</strong>
          <span className="small muted">
            {r.labelled.matched_fraud} fraud, {r.labelled.matched_legitimate} legitimate among matches
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Recall</span>
          <strong data-testid="backtest-recall">{percent(r.recall)}</strong>
          <span className="small muted">of {r.labelled.fraud} labelled fraud</span>
        </div>
      </div>
      {r.labelled.fraud + r.labelled.legitimate === 0 ? (
        <p className="small muted">
          No assessment in this range has an outcome label yet: label answers on the Assess page to measure precision
          and recall.
        </p>
      ) : null}
      <h4>Decision changes</h4>
      {r.decision_changes.length === 0 ? (
        <p className="small muted" data-testid="backtest-no-changes">
          No recorded decision would change.
        </p>
      ) : (
        <ul className="change-list" data-testid="backtest-changes">
          {r.decision_changes.map((c) => (
            <li key={`${c.from}-${c.to}`}>
              <span className={`badge decision-${c.from}`}>{c.from}</span> →{" "}
              <span className={`badge decision-${c.to}`}>{c.to}</span> <strong>{c.count}</strong>
            </li>
          ))}
        </ul>
      )}
      {r.sample_request_ids.length > 0 ? (
        <>
          <h4>Matching requests (newest first)</h4>
          <ul className="sample-list" data-testid="backtest-samples">
            {r.sample_request_ids.map((id) => (
              <li key={id}>
                <Link href={`/dashboard/events?query=${encodeURIComponent(id)}`}>
                  <code>{id}</code>
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {r.errors.count > 0 ? (
        <p className="small notice">
          The rule could not be evaluated on {r.errors.count} assessment{r.errors.count === 1 ? "" : "s"} (counted as no
          match){r.errors.first ? `: ${r.errors.first}` : "."}
        </p>
      ) : null}
      {r.without_facts > 0 ? (
        <p className="small muted">
          {r.without_facts} older assessments were recorded before their facts were kept and are not counted.
        </p>
      ) : null}
      {r.truncated ? (
        <p className="small muted">The range holds more assessments than one test reads: the newest were tested.</p>
      ) : null}
    </div>
  );
}
