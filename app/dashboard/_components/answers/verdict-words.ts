// The words for an email security verdict (pass / warn / fail / unknown), one check's and the overall one's: the
// lookup answer's summary card and a sender's posture badges say the same thing in the same words.
export type Verdict = "pass" | "warn" | "fail" | "unknown";

export const VERDICT_WORDS: Record<Verdict, string> = {
  pass: "in place",
  warn: "needs attention",
  fail: "problem",
  unknown: "could not be checked",
};

export const OVERALL_WORDS: Record<Verdict, string> = {
  pass: "Healthy",
  warn: "Needs attention",
  fail: "Problem found",
  unknown: "Check incomplete",
};
