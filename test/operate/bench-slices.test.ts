// `npm run bench` measures a scenario with a reference in slices, each right after a slice of its reference
// (bench/run.ts, BENCH_ROUNDS), and adds the slices up with combineFigures (bench/load.ts).
import { describe, expect, it } from "vitest";
import { combineFigures, type Figures } from "../../bench/load";

const slice = (o: Partial<Figures> & { totalRequests: number; seconds: number }): Figures => ({
  requestsPerSecond: o.totalRequests / o.seconds,
  latencyMs: { p50: 2, p90: 4, p99: 8, mean: 3, max: 20 },
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  statusCodes: { "200": o.totalRequests },
  serverCpuMsPerRequest: 0.1,
  loadAverage: { before: 1, after: 1 },
  ...o,
});

describe("a measurement in slices", () => {
  it("answers the requests per second over all the slices' seconds, and CPU per request weighted by requests", () => {
    const f = combineFigures([
      slice({ totalRequests: 1000, seconds: 2, serverCpuMsPerRequest: 0.2, loadAverage: { before: 1.5, after: 1.7 } }),
      slice({
        totalRequests: 3000,
        seconds: 2,
        serverCpuMsPerRequest: 0.1,
        statusCodes: { "200": 2990, "503": 10 },
        non2xx: 10,
        latencyMs: { p50: 3, p90: 5, p99: 30, mean: 4, max: 90 },
        loadAverage: { before: 1.8, after: 2.1 },
      }),
    ]);
    expect(f.requestsPerSecond).toBe(1000); // 4,000 requests in 4 s, not the mean of 500 and 1,500 per second
    expect(f.totalRequests).toBe(4000);
    expect(f.seconds).toBe(4);
    expect(f.serverCpuMsPerRequest).toBe(0.125); // (1000 x 0.2 + 3000 x 0.1) / 4000
    expect(f.statusCodes).toEqual({ "200": 3990, "503": 10 });
    expect(f.non2xx).toBe(10);
    expect(f.latencyMs).toEqual({ p50: 3, p90: 5, p99: 30, mean: 3.75, max: 90 });
    expect(f.loadAverage).toEqual({ before: 1.5, after: 2.1 });
  });

  it("has no CPU figure when a slice has none, and weighs upstream calls per request", () => {
    const f = combineFigures([
      slice({ totalRequests: 100, seconds: 1, serverCpuMsPerRequest: null, upstreamCallsPerRequest: { dns: 70 } }),
      slice({ totalRequests: 300, seconds: 1, upstreamCallsPerRequest: { dns: 69, npm: 1 } }),
    ]);
    expect(f.serverCpuMsPerRequest).toBeNull();
    expect(f.upstreamCallsPerRequest).toEqual({ dns: 69.25, npm: 0.75 });
  });

  it("gives a single slice back as it is", () => {
    const one = slice({ totalRequests: 10, seconds: 1 });
    expect(combineFigures([one])).toBe(one);
  });
});
