// A workspace's signal weights: the defaults (server/scoring/score.ts) beside weights learned from its own outcome
// labels (./fit.ts), with the labels behind each code, and the switch between them. Switching to learned weights
// fits once and keeps that snapshot, so scoring never refits and a label never changes scores by surprise: the
// workspace refits by switching to `learned` again. Only this workspace's labels and assessments are ever read.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { isFraudLike, OUTCOME_EVENT, OUTCOMES } from "../assessment/outcomes";
import { SIGNAL_WEIGHTS, type WeightSet } from "../scoring/score";
import { recordAudit, type Actor } from "../audit/audit";
import { learnedWeightsMaxLabels, learnedWeightsMinLabels } from "./config";
import { fitSignalWeights, type LabelledSignals } from "./fit";
import { forgetWeightsInUse } from "./in-use";

export interface SignalWeightRow {
  code: string;
  default_weight: number | null;
  learned_weight: number | null;
  weight_in_use: number | null;
  labels: number;
  fraud: number;
  legitimate: number;
}

export interface WeightsOverview {
  weights: WeightSet;
  labelled: { total: number; fraud: number; legitimate: number };
  minimum: { labels: number; met: boolean; message: string | null };
  fitted_at: string | null;
  signals: SignalWeightRow[];
}

interface LabelledAssessment extends LabelledSignals {
  /** Each signal's recorded weight, and whether the assessment was scored with the default weights. */
  recorded: { code: string; weight: number }[];
  scoredWithDefaults: boolean;
}

/** The newest label of each labelled assessment of the workspace, with the signals its assessment recorded. */
async function labelledAssessments(db: Db, workspaceId: string): Promise<LabelledAssessment[]> {
  const rows = await db.$queryRawUnsafe<
    { signals: unknown; unscored: unknown; weights: string | null; outcome: string }[]
  >(
    `SELECT a."data"->'signals' AS "signals", a."data"->'unscored_signals' AS "unscored", a."data"->>'weights' AS "weights", o."outcome"
       FROM (SELECT DISTINCT ON ("requestId") "requestId", "data"->>'outcome' AS "outcome", "createdAt" FROM "Event"
              WHERE "workspaceId" = $1 AND "type" = $2 ORDER BY "requestId", "createdAt" DESC, "id" DESC) o
       JOIN "Event" a ON a."workspaceId" = $1 AND a."type" = 'assessment' AND a."requestId" = o."requestId"
      ORDER BY o."createdAt" DESC LIMIT $3`,
    workspaceId,
    OUTCOME_EVENT,
    learnedWeightsMaxLabels(),
  );
  return rows
    .filter((r) => (OUTCOMES as readonly string[]).includes(r.outcome))
    .map((r) => {
      const recorded = (Array.isArray(r.signals) ? r.signals : []).filter(
        (s): s is { code: string; weight: number } => typeof s?.code === "string" && typeof s?.weight === "number",
      );
      const unscored = (Array.isArray(r.unscored) ? r.unscored : []).filter((c): c is string => typeof c === "string");
      return {
        codes: [...recorded.map((s) => s.code), ...unscored],
        fraud: isFraudLike(r.outcome),
        recorded,
        scoredWithDefaults: r.weights !== "learned",
      };
    });
}

const tableDefault = (code: string): number | null =>
  Object.hasOwn(SIGNAL_WEIGHTS, code) ? SIGNAL_WEIGHTS[code as keyof typeof SIGNAL_WEIGHTS].weight : null;

/**
 * The default weight of every code: the table's, or for codes weighed in their own modules (email, velocity, amount,
 * device) the weight they were most often recorded with while the workspace scored with the defaults.
 */
function defaultWeights(labelled: LabelledAssessment[]): Map<string, number | null> {
  const seen = new Map<string, Map<number, number>>();
  for (const a of labelled) {
    for (const s of a.recorded) {
      const counts = seen.get(s.code) ?? new Map<number, number>();
      if (a.scoredWithDefaults) counts.set(s.weight, (counts.get(s.weight) ?? 0) + 1);
      seen.set(s.code, counts);
    }
  }
  const out = new Map<string, number | null>(Object.keys(SIGNAL_WEIGHTS).map((c) => [c, tableDefault(c)]));
  for (const [code, counts] of seen) {
    if (out.has(code)) continue;
    const common = [...counts.entries()].sort((x, y) => y[1] - x[1] || y[0] - x[0])[0];
    out.set(code, common ? common[0] : null);
  }
  return out;
}

function minimumOf(labelled: { total: number; fraud: number; legitimate: number }): WeightsOverview["minimum"] {
  const labels = learnedWeightsMinLabels();
  const met = labelled.total >= labels && labelled.fraud > 0 && labelled.legitimate > 0;
  const message = met
    ? null
    : `Learned weights need at least ${labels} labelled assessments with both fraud and legitimate among them; this workspace has ${labelled.total} (${labelled.fraud} fraud, ${labelled.legitimate} legitimate). The default weights stay in use.`;
  return { labels, met, message };
}

interface Fitted {
  labelled: WeightsOverview["labelled"];
  minimum: WeightsOverview["minimum"];
  defaults: Map<string, number | null>;
  learned: Record<string, number> | null;
  byCode: Map<string, { labels: number; fraud: number }>;
}

async function fitWorkspace(db: Db, workspaceId: string): Promise<Fitted> {
  const all = await labelledAssessments(db, workspaceId);
  const fraud = all.filter((a) => a.fraud).length;
  const labelled = { total: all.length, fraud, legitimate: all.length - fraud };
  const minimum = minimumOf(labelled);
  const defaults = defaultWeights(all);
  const byCode = new Map<string, { labels: number; fraud: number }>();
  for (const a of all) {
    for (const code of new Set(a.codes)) {
      const c = byCode.get(code) ?? { labels: 0, fraud: 0 };
      c.labels += 1;
      if (a.fraud) c.fraud += 1;
      byCode.set(code, c);
    }
  }
  const prior = Object.fromEntries([...defaults].filter((e): e is [string, number] => e[1] !== null));
  const learned = minimum.met ? fitSignalWeights(all, { priorPoints: prior }).points : null;
  return { labelled, minimum, defaults, learned, byCode };
}

/** GET /weights: which set is in use, the defaults beside a fresh fit, and the labels behind each code. */
export async function weightsOverview(db: Db, workspaceId: string): Promise<WeightsOverview> {
  const [fitted, state] = await Promise.all([
    fitWorkspace(db, workspaceId),
    db.workspaceWeights.findUnique({ where: { workspaceId } }),
  ]);
  const mode: WeightSet = state?.mode === "learned" ? "learned" : "default";
  const snapshot = mode === "learned" ? ((state?.weights ?? {}) as Record<string, number>) : null;
  const codes = [
    ...new Set([...fitted.defaults.keys(), ...fitted.byCode.keys(), ...Object.keys(snapshot ?? {})]),
  ].sort();
  const signals = codes.map((code) => {
    const c = fitted.byCode.get(code) ?? { labels: 0, fraud: 0 };
    const def = fitted.defaults.get(code) ?? null;
    return {
      code,
      default_weight: def,
      learned_weight: fitted.learned?.[code] ?? null,
      weight_in_use: snapshot?.[code] ?? def,
      labels: c.labels,
      fraud: c.fraud,
      legitimate: c.labels - c.fraud,
    };
  });
  return {
    weights: mode,
    labelled: fitted.labelled,
    minimum: fitted.minimum,
    fitted_at: mode === "learned" ? (state?.fittedAt?.toISOString() ?? null) : null,
    signals,
  };
}

/**
 * POST /weights/mode. `learned` fits the workspace's labels now and scores with that snapshot from the next
 * assessment on (409 CONFLICT, defaults kept, under the minimum); `default` goes back to the default table. Either
 * way the change is audited in the same transaction, and this instance forgets its cached set at once.
 */
export async function setWeightsModeOrThrow(
  db: Db,
  a: { workspaceId: string; mode: WeightSet; actor: Actor; requestId: string },
): Promise<WeightsOverview> {
  let learned: Record<string, number> | null = null;
  let labels: Record<string, unknown> | null = null;
  if (a.mode === "learned") {
    const fitted = await fitWorkspace(db, a.workspaceId);
    if (!fitted.minimum.met || !fitted.learned)
      throw new AppError("CONFLICT", fitted.minimum.message ?? "Learned weights cannot be fitted yet.");
    learned = fitted.learned;
    labels = { ...fitted.labelled, by_code: Object.fromEntries([...fitted.byCode].map(([c, n]) => [c, n.labels])) };
  }
  await db.$transaction(async (tx) => {
    const before = await tx.workspaceWeights.findUnique({ where: { workspaceId: a.workspaceId } });
    const fittedAt = learned ? new Date() : (before?.fittedAt ?? null);
    const data = learned ? { mode: a.mode, weights: learned, labels: labels as object, fittedAt } : { mode: a.mode };
    await tx.workspaceWeights.upsert({
      where: { workspaceId: a.workspaceId },
      create: { workspaceId: a.workspaceId, ...data },
      update: data,
    });
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      requestId: a.requestId,
      type: "audit.weights.mode_changed",
      actor: a.actor,
      target: { kind: "weights", id: a.workspaceId, label: "signal weights" },
      before: { mode: before?.mode ?? "default" },
      after: learned ? { mode: a.mode, weights: learned, labelled: labels } : { mode: a.mode },
    });
  });
  forgetWeightsInUse(a.workspaceId);
  return weightsOverview(db, a.workspaceId);
}
