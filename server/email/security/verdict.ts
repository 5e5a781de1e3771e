export type CheckStatus = "pass" | "warn" | "fail" | "unknown";

const RANK: Record<CheckStatus, number> = { pass: 0, unknown: 1, warn: 2, fail: 3 };

export function worst(statuses: CheckStatus[]): CheckStatus {
  return statuses.reduce<CheckStatus>((w, s) => (RANK[s] > RANK[w] ? s : w), "pass");
}
