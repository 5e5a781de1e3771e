// The ladder counts a request against its burst limit only after the input's schema (README "Architecture": input
// validation -> burst limit): every unmetered procedure that declares `meta.rateLimit` enforces it with
// `withinBurstLimit` placed after its `.input()`, and a metered one in chargeAndRun. A procedure that declared a
// limit without the step would not be limited at all, and one whose step came before its input would spend the
// workspace's burst on requests its schema refuses (how /rules/backtest and /passwords/range answered 429 to a good
// request after a few typos; test/rules/backtest.test.ts and test/passwords/range.test.ts hold the answers).
import { describe, expect, it } from "vitest";
import { appRouter } from "../../server/api/root";
import { withinBurstLimit } from "../../server/api/trpc";

interface ProcedureDef {
  _def: { meta?: { rateLimit?: unknown; metered?: unknown }; middlewares: { _type?: string }[] };
}

// A middleware builder hands its function to `.use()`; the procedure keeps that function among its steps.
const burstStep = (withinBurstLimit as unknown as { _middlewares: { _type?: string }[] })._middlewares[0];
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>);

describe("burst limits come after the input's schema", () => {
  const limited = procedures.filter(([, p]) => p._def.meta?.rateLimit && !p._def.meta.metered);

  it("finds the unmetered procedures that declare one", () => {
    expect(limited.map(([name]) => name)).toEqual(
      expect.arrayContaining(["rules.backtest", "passwords.passwordRange", "vulnerabilities.scanPreview"]),
    );
  });

  it.each(limited.map(([name, p]) => [name, p] as const))("%s enforces it after its input", (_name, p) => {
    const steps = p._def.middlewares;
    const at = steps.indexOf(burstStep);
    const lastInput = steps.map((m) => m._type).lastIndexOf("input");
    expect(at).toBeGreaterThan(-1);
    expect(lastInput).toBeGreaterThan(-1);
    expect(at).toBeGreaterThan(lastInput);
  });
});
