"use client";
// A saved report renders whatever its stored shape: a full assessment answer reopens as that answer, an assessment
// event (score, decision, signal codes) as a summary, anything else as a readable structure. A renderer that still
// throws is caught here, so one bad report never takes the page down: it shows as plain JSON instead.
import { Component, type ReactNode } from "react";
import { AssessmentAnswer } from "../_components/AssessmentAnswer";
import { LookupAnswer } from "../_components/LookupAnswer";
import type { AssessResult } from "../../../server/assessment/schemas";

const isArr = (v: unknown): v is unknown[] => Array.isArray(v);
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** A complete assessment result, as POST /assess answers it (every part the answer view reads is there). */
export function asFullAssessment(v: unknown): AssessResult | null {
  if (!isObj(v)) return null;
  const ok =
    typeof v.score === "number" &&
    typeof v.risk_level === "string" &&
    typeof v.decision === "string" &&
    isArr(v.signals) &&
    v.signals.every((s) => isObj(s) && typeof s.code === "string" && isArr(s.evidence)) &&
    isArr(v.rules) &&
    v.rules.every((r) => isObj(r) && typeof r.id === "string") &&
    isArr(v.sources) &&
    isObj(v.ip) &&
    typeof v.request_id === "string";
  return ok ? (v as unknown as AssessResult) : null;
}

/** Score, risk and decision of an assessment in any stored shape (a result or an investigation event's data). */
function verdictOf(v: unknown): { score: number; risk: string; decision: string | null; signals: string[] } | null {
  if (!isObj(v) || typeof v.score !== "number") return null;
  const risk = typeof v.risk_level === "string" ? v.risk_level : typeof v.riskLevel === "string" ? v.riskLevel : null;
  if (!risk) return null;
  const signals = (isArr(v.signals) ? v.signals : [])
    .map((s) => (typeof s === "string" ? s : isObj(s) && typeof s.code === "string" ? s.code : null))
    .filter((s): s is string => s !== null);
  return { score: v.score, risk, decision: typeof v.decision === "string" ? v.decision : null, signals };
}

export function ReportBody({ report }: { report: unknown }) {
  return (
    <ReportBoundary report={report}>
      <ReportShape report={report} />
    </ReportBoundary>
  );
}

function ReportShape({ report }: { report: unknown }) {
  const full = asFullAssessment(report);
  if (full) return <AssessmentAnswer result={full} />;
  const verdict = verdictOf(report);
  return (
    <>
      {verdict ? (
        <div className="card" data-testid="report-verdict">
          <p className="answer-headline">
            <span className={`badge risk-${verdict.risk}`}>{verdict.risk} risk</span>{" "}
            {verdict.decision ? <span className={`badge decision-${verdict.decision}`}>{verdict.decision}</span> : null}{" "}
            <span>score {verdict.score} of 100</span>
          </p>
          <p className="muted small">
            {verdict.signals.length ? `Signals: ${verdict.signals.join(", ")}.` : "No signals were raised."}
          </p>
        </div>
      ) : null}
      <LookupAnswer value={report} />
    </>
  );
}

class ReportBoundary extends Component<{ report: unknown; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidUpdate(prev: { report: unknown }) {
    if (prev.report !== this.props.report && this.state.failed) this.setState({ failed: false });
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="card" data-testid="report-fallback">
        <p className="muted small">This report is shown as saved, without formatting.</p>
        <pre className="raw-json" tabIndex={0}>
          {safeJson(this.props.report)}
        </pre>
      </div>
    );
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}
