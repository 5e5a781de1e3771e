// Refusals below 500 are answers, not faults: neither the AppError nor the tRPC error made of it captures a stack
// (server/errors.ts stackLimitFor, withStackFor), a fault at 500 and above keeps its stack, and the process's
// Error.stackTraceLimit is the same afterwards, even when making the error throws.
import { expect, it } from "vitest";
import { asTRPCError } from "../../server/api/trpc";
import { AppError, withStackFor } from "../../server/errors";

const frames = (err: unknown) => ((err as Error).stack ?? "").split("\n").filter((l) => /^\s+at /.test(l)).length;

it("captures no stack for a refusal, in the AppError and in the tRPC error made of it", () => {
  const limit = Error.stackTraceLimit;
  const refusal = new AppError("UNAUTHORIZED", "no key");
  expect(frames(refusal)).toBe(0);
  expect(frames(asTRPCError(refusal))).toBe(0);
  expect(Error.stackTraceLimit).toBe(limit);
});

it("keeps the stack of a fault", () => {
  const fault = new AppError("INTERNAL_ERROR", "broken");
  expect(frames(fault)).toBeGreaterThan(0);
  expect(frames(asTRPCError(fault))).toBeGreaterThan(0);
});

it("puts the limit back when making the error throws", () => {
  const limit = Error.stackTraceLimit;
  expect(() =>
    withStackFor(400, () => {
      throw new Error("made badly");
    }),
  ).toThrow("made badly");
  expect(Error.stackTraceLimit).toBe(limit);
});
