// The words for an email security verdict (pass / warn / fail / unknown), one check's and the overall one's, and
// each check's name: the lookup answer's summary card, a sender's posture badges and a monitor's email security
// state say the same thing in the same words.
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

/** The email security answer's checks by their keys, as people name them: authentication, then transport. */
export const EMAIL_AUTHENTICATION_CHECKS = [
  ["spf", "SPF"],
  ["dkim", "DKIM"],
  ["dmarc", "DMARC"],
] as const;
export const EMAIL_TRANSPORT_CHECKS = [
  ["mtaSts", "MTA-STS (enforced TLS)"],
  ["tlsRpt", "TLS reporting"],
  ["dane", "DANE"],
  ["bimi", "BIMI logo"],
] as const;
