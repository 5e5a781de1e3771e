// The learned-weight fit on its own: planted weights of a synthetic labelled set are recovered within a tolerance,
// and a code with few labels stays near its default (the prior), however the few labels fall.
import { describe, expect, it } from "vitest";
import { fitSignalWeights, POINTS_PER_LOG_ODDS, type LabelledSignals } from "../../server/weights/fit";

/** A small seeded generator (mulberry32), so the synthetic set is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Labels drawn from a logistic model whose coefficients are the planted points (at the fit's own scale). */
function synthetic(
  planted: Record<string, number>,
  n: number,
  opts: { present: number; baseRate: number; seed: number },
): LabelledSignals[] {
  const rnd = random(opts.seed);
  const intercept = Math.log(opts.baseRate / (1 - opts.baseRate));
  return Array.from({ length: n }, () => {
    const codes = Object.keys(planted).filter(() => rnd() < opts.present);
    const z = codes.reduce((s, c) => s + planted[c]! / POINTS_PER_LOG_ODDS, intercept);
    return { codes, fraud: rnd() < 1 / (1 + Math.exp(-z)) };
  });
}

describe("fitSignalWeights", () => {
  it("recovers the planted weights of a synthetic labelled set within 5 points", () => {
    const planted = {
      ip_tor_exit: 60,
      email_disposable: 40,
      ip_vpn: 15,
      velocity_ip: 30,
      ip_private_relay: 0,
      ip_verified_crawler: -30,
    };
    const samples = synthetic(planted, 20_000, { present: 0.3, baseRate: 0.1, seed: 42 });
    const fit = fitSignalWeights(samples);
    expect(fit.converged).toBe(true);
    for (const [code, points] of Object.entries(planted))
      expect(Math.abs(fit.points[code]! - points), code).toBeLessThanOrEqual(5);
    expect(Object.keys(fit.points).sort()).toEqual(Object.keys(planted).sort());
  });

  it("keeps a code with a handful of labels near its default, and moves a well-labelled one to the evidence", () => {
    const planted = { email_disposable: 70, ua_unusual: 10 };
    const many = synthetic(planted, 10_000, { present: 0.4, baseRate: 0.2, seed: 7 }).map((s) => ({
      ...s,
      codes: s.codes.filter((c) => c === "email_disposable"),
    }));
    // Three labels of a rare code, all fraud: without the prior its weight would run off towards the limit.
    const rare = [
      { codes: ["ip_not_public"], fraud: true },
      { codes: ["ip_not_public"], fraud: true },
      { codes: ["ip_not_public"], fraud: true },
    ];
    const fit = fitSignalWeights([...many, ...rare], { priorPoints: { email_disposable: 35, ip_not_public: 20 } });
    expect(Math.abs(fit.points.email_disposable! - 70)).toBeLessThanOrEqual(5);
    expect(fit.points.ip_not_public).toBeGreaterThanOrEqual(20);
    expect(fit.points.ip_not_public).toBeLessThan(60);
  });

  it("maps a tenfold change in the odds of fraud to 50 points and stays within ±100", () => {
    expect(Math.round(Math.log(10) * POINTS_PER_LOG_ODDS)).toBe(50);
    const extreme = Array.from({ length: 2000 }, (_, i) => ({
      codes: i % 2 ? ["ip_tor_exit"] : [],
      fraud: i % 2 === 1,
    }));
    const fit = fitSignalWeights(extreme, { lambda: 1e-6 });
    expect(fit.points.ip_tor_exit).toBe(100);
  });
});
