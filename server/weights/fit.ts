// Learned signal weights: an L2-regularised logistic regression of "this request was fraud" on which signal codes
// fired, fitted by Newton's method in plain TypeScript (a few dozen codes at most, so the Hessian is small and each
// iteration is one pass over the distinct signal sets). The penalty pulls each coefficient towards the code's
// default weight rather than towards zero, so a code with few labels keeps close to its default and only evidence
// moves it.
//
// From log-odds to points. The score is additive (server/scoring/score.ts): points of the signals that fired,
// clamped to 0..100, read in bands (30 medium, 60 high, 80 critical). A logistic model is additive in log-odds, so
// one fixed scale maps one onto the other: POINTS_PER_LOG_ODDS = 50 / ln 10, i.e. a signal that multiplies the odds
// of fraud tenfold adds 50 points, twice as strong (hundredfold) adds 100. Signals that make fraud less likely get
// negative points. The intercept (the base rate of fraud in the workspace's labels) is not scored: a request with
// no signal scores 0 as it does with the defaults, and the bands keep their meaning of "how much evidence".
export const POINTS_PER_LOG_ODDS = 50 / Math.LN10;
/** Learned weights stay within the scale of the defaults. */
export const MAX_LEARNED_POINTS = 100;

export interface LabelledSignals {
  codes: readonly string[];
  fraud: boolean;
}

export interface FitOptions {
  /** Penalty per unit of squared log-odds away from the prior (1: a prior standard deviation of one log-odds unit). */
  lambda?: number;
  /** The prior weight of each code in points (its default); codes absent here are pulled towards 0. */
  priorPoints?: Readonly<Record<string, number>>;
  maxIterations?: number;
}

export interface SignalFit {
  /** Points by code, rounded and clamped to ±MAX_LEARNED_POINTS. */
  points: Record<string, number>;
  /** The fitted coefficients in log-odds, by code. */
  logOdds: Record<string, number>;
  intercept: number;
  iterations: number;
  converged: boolean;
}

export const pointsOf = (logOdds: number): number =>
  Math.max(-MAX_LEARNED_POINTS, Math.min(MAX_LEARNED_POINTS, Math.round(logOdds * POINTS_PER_LOG_ODDS)));

/** Fits one coefficient per signal code seen in `samples` (plus an unscored intercept). */
export function fitSignalWeights(samples: readonly LabelledSignals[], opts: FitOptions = {}): SignalFit {
  const lambda = opts.lambda ?? 1;
  const codes = [...new Set(samples.flatMap((s) => s.codes))].sort();
  const index = new Map(codes.map((c, i) => [c, i + 1]));
  // Identical signal sets are one row with counts: thousands of labels usually hold a few hundred distinct sets.
  const groups = new Map<string, { cols: number[]; n: number; fraud: number }>();
  for (const s of samples) {
    const cols = [...new Set(s.codes.map((c) => index.get(c)!))].sort((a, b) => a - b);
    const key = cols.join(",");
    const g = groups.get(key) ?? { cols, n: 0, fraud: 0 };
    g.n += 1;
    if (s.fraud) g.fraud += 1;
    groups.set(key, g);
  }
  const rows = [...groups.values()];
  const d = codes.length + 1;
  const prior = [0, ...codes.map((c) => (opts.priorPoints?.[c] ?? 0) / POINTS_PER_LOG_ODDS)];
  const total = samples.length;
  const fraudShare = total ? samples.filter((s) => s.fraud).length / total : 0.5;
  const clampedShare = Math.min(1 - 1e-3, Math.max(1e-3, fraudShare));
  let beta = [...prior];
  beta[0] = Math.log(clampedShare / (1 - clampedShare));

  const loss = (b: number[]): number => {
    let l = 0;
    for (const r of rows) {
      const z = r.cols.reduce((sum, j) => sum + b[j]!, b[0]!);
      // -log p = log(1 + e^-z), -log(1 - p) = log(1 + e^z), computed without overflow.
      l += r.fraud * softplus(-z) + (r.n - r.fraud) * softplus(z);
    }
    for (let j = 1; j < d; j++) l += (lambda / 2) * (b[j]! - prior[j]!) ** 2;
    return l;
  };

  let iterations = 0;
  let converged = false;
  let current = loss(beta);
  const maxIterations = opts.maxIterations ?? 50;
  while (iterations < maxIterations) {
    iterations += 1;
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const r of rows) {
      const z = r.cols.reduce((sum, j) => sum + beta[j]!, beta[0]!);
      const p = 1 / (1 + Math.exp(-z));
      const g = r.n * p - r.fraud;
      const w = r.n * p * (1 - p);
      const cols = [0, ...r.cols];
      for (const a of cols) {
        grad[a]! += g;
        for (const b of cols) hess[a]![b]! += w;
      }
    }
    for (let j = 1; j < d; j++) {
      grad[j]! += lambda * (beta[j]! - prior[j]!);
      hess[j]![j]! += lambda;
    }
    // The intercept is unpenalised; a tiny ridge keeps the system solvable when every label is one class.
    hess[0]![0]! += 1e-9;
    const step = solve(hess, grad);
    // Newton with step halving: the loss is convex, so a shorter step always exists that does not increase it.
    let t = 1;
    let next = beta.map((b, j) => b - t * step[j]!);
    let nextLoss = loss(next);
    while (nextLoss > current + 1e-12 && t > 1e-4) {
      t /= 2;
      next = beta.map((b, j) => b - t * step[j]!);
      nextLoss = loss(next);
    }
    const moved = Math.max(...step.map((s) => Math.abs(s * t)));
    beta = next;
    current = nextLoss;
    if (moved < 1e-7) {
      converged = true;
      break;
    }
  }
  const logOdds = Object.fromEntries(codes.map((c, i) => [c, beta[i + 1]!]));
  return {
    points: Object.fromEntries(codes.map((c) => [c, pointsOf(logOdds[c]!)])),
    logOdds,
    intercept: beta[0]!,
    iterations,
    converged,
  };
}

function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is symmetric positive definite here). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    if (Math.abs(p) < 1e-15) continue;
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / p;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const p = m[r]![r]!;
    if (Math.abs(p) < 1e-15) continue;
    let s = m[r]![n]!;
    for (let c = r + 1; c < n; c++) s -= m[r]![c]! * x[c]!;
    x[r] = s / p;
  }
  return x;
}
