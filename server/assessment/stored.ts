// Reading stored assessments back (backtests, analytics): the parts of each assessment event that later
// evaluation needs, newest first, in keyset pages so a large range never sits in memory as rows of full events.
import type { Db } from "../db/client";
import type { Facts } from "../rules/facts";

export interface StoredAssessment {
  id: string;
  requestId: string;
  createdAt: Date;
  riskLevel: string | null;
  decision: string | null;
  /** Active rules that matched, in evaluation order (the first decided). */
  rules: string[];
  /** Shadow rules that matched, with the action each would have taken. */
  shadowRules: { id: string; action: string }[];
  signals: string[];
  /** Absent on assessments recorded before facts were stored. */
  facts: Facts | null;
}

type Row = {
  id: string;
  requestId: string;
  createdAt: Date;
  risk_level: string | null;
  decision: string | null;
  rules: unknown;
  shadow_rules: unknown;
  signals: unknown;
  facts: unknown;
};

const PAGE = 5000;

export async function* storedAssessments(
  db: Db,
  a: { workspaceId: string; since: Date; until: Date; limit: number; withFacts?: boolean },
): AsyncGenerator<StoredAssessment> {
  let cursor: { createdAt: Date; id: string } | null = null;
  let left = a.limit;
  while (left > 0) {
    const take = Math.min(PAGE, left);
    const params: unknown[] = [a.workspaceId, a.since, a.until, take];
    let after = "";
    if (cursor) {
      params.push(cursor.createdAt, cursor.id);
      after = `AND ("createdAt", "id") < ($5::timestamp(3), $6::text)`;
    }
    const rows: Row[] = await db.$queryRawUnsafe<Row[]>(
      `SELECT "id", "requestId", "createdAt", "data"->>'risk_level' AS "risk_level", "data"->>'decision' AS "decision",
              "data"->'rules' AS "rules", "data"->'shadow_rules' AS "shadow_rules", "data"->'signals' AS "signals"
              ${a.withFacts === false ? `, NULL AS "facts"` : `, "data"->'facts' AS "facts"`}
         FROM "Event"
        WHERE "workspaceId" = $1 AND "type" = 'assessment' AND "createdAt" >= $2::timestamp(3) AND "createdAt" < $3::timestamp(3) ${after}
        ORDER BY "createdAt" DESC, "id" DESC LIMIT $4`,
      ...params,
    );
    for (const r of rows) yield toStored(r);
    left -= rows.length;
    if (rows.length < take) return;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

const json = (v: unknown): unknown => (typeof v === "string" ? safeParse(v) : v);
function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

function toStored(r: Row): StoredAssessment {
  const rules = json(r.rules);
  const shadow = json(r.shadow_rules);
  const signals = json(r.signals);
  const facts = json(r.facts);
  return {
    id: r.id,
    requestId: r.requestId,
    createdAt: r.createdAt,
    riskLevel: r.risk_level,
    decision: r.decision,
    rules: Array.isArray(rules) ? rules.filter((x): x is string => typeof x === "string") : [],
    shadowRules: Array.isArray(shadow)
      ? shadow
          .filter((x) => x && typeof x.id === "string")
          .map((x) => ({ id: x.id as string, action: String(x.action) }))
      : [],
    signals: Array.isArray(signals)
      ? signals
          .map((s) => (s && typeof s === "object" ? (s.code ?? s.name) : null))
          .filter((x): x is string => typeof x === "string")
      : [],
    facts: facts && typeof facts === "object" && !Array.isArray(facts) ? (facts as Facts) : null,
  };
}
