// An input check that throws an exception of its own (a transform or refinement, or a library it calls, failing on
// an input nobody foresaw) is the input's problem, so 400 INVALID_REQUEST, but its text is the code's: the answer
// says it in general words (it used to repeat the exception's message, internals included), while a check's own
// refusal (a zod issue, an AppError) keeps its words. Run through tRPC's own input step, as every procedure is.
import { initTRPC } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorParts } from "../../server/api/http/respond";
import { AppError, toErrorBody } from "../../server/errors";
import { withLogLines } from "../log-lines";

const t = initTRPC.create();
const router = t.router({
  threw: t.procedure
    .input(
      z.object({
        host: z.string().transform((h) => {
          if (h === "boom")
            throw new TypeError("Cannot read properties of undefined (reading 'labels') at punycode.ts:41");
          return h;
        }),
      }),
    )
    .query(({ input }) => input.host),
  refused: t.procedure
    .input(
      z.object({
        host: z.string().transform((h) => {
          if (h === "nope") throw new AppError("INVALID_INPUT", "host: not a host name");
          return h;
        }),
      }),
    )
    .query(({ input }) => input.host),
  issue: t.procedure.input(z.object({ limit: z.number().int() })).query(({ input }) => input.limit),
});
const caller = t.createCallerFactory(router)({});

async function refusal(call: () => Promise<unknown>) {
  try {
    await call();
  } catch (err) {
    return toErrorBody(err);
  }
  throw new Error("the call was not refused");
}

describe("an input check that throws", () => {
  it("is 400 INVALID_REQUEST in general words, flagged for the door's log, never the exception's text", async () => {
    const r = await refusal(() => caller.threw({ host: "boom" }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("INVALID_REQUEST");
    expect(r.body.error.message).toBe(
      "A field of the request could not be read; check the request against the API reference.",
    );
    expect(r.body.error.message).not.toMatch(/undefined|punycode|labels/);
    expect(r.checkThrew).toBe(true);
    expect(await caller.threw({ host: "example.com" })).toBe("example.com");
  });

  it("keeps a check's own refusal: an AppError's code and words, a zod issue's words", async () => {
    const app = await refusal(() => caller.refused({ host: "nope" }));
    expect(app).toMatchObject({
      status: 400,
      body: { error: { code: "INVALID_INPUT", message: "host: not a host name" } },
    });
    expect(app.checkThrew).toBeUndefined();
    const issue = await refusal(() => caller.issue({ limit: 1.5 }));
    expect(issue).toMatchObject({ status: 400, body: { error: { code: "INVALID_REQUEST" } } });
    expect(issue.body.error.message).toBe("limit: expected a whole number, got 1.5");
    expect(issue.checkThrew).toBeUndefined();
  });

  it("is logged at warn with its exception by the doors' one error rule (/v1, the account routes, the dashboard)", async () => {
    let thrown: unknown;
    try {
      await caller.threw({ host: "boom" });
    } catch (err) {
      thrown = err;
    }
    const lines = await withLogLines(async (l) => {
      expect(errorParts(thrown, "req_check_threw", "dashboard threw").status).toBe(400);
      return l;
    }, "warn");
    const records = lines.map((l) => JSON.parse(l));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 40, msg: "an input check threw", request_id: "req_check_threw" });
    expect(JSON.stringify(records[0].err)).toContain("punycode.ts:41");
  });
});
