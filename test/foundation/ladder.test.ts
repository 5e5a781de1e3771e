// One admission ladder (issue 44, item 1): the steps are the named functions of server/api/ladder.ts, each with its
// contract; the tRPC builders call them (for the dashboard and every /v1 route, through the REST door) and nothing keeps a step of its own; and the ladder is
// the only caller of the reservation, a request's (admitMeteredRequest) and a job's payer's (reserveUnits, for a bulk
// job's items and a monitor run: reserveJobUnits, handed to server/bulk/ and server/monitors/ by the API layer).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = process.cwd();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" || name === "node_modules" ? [] : sources(full);
    return /\.(ts|tsx|mjs)$/.test(name) ? [full] : [];
  });
}

const files = ["server", "app", "scripts"].flatMap((d) => sources(path.join(root, d)));
const rel = (f: string) => path.relative(root, f).split(path.sep).join("/");

/** The files whose code (comments left out) calls `name(`. */
function callersOf(name: string, among = files): string[] {
  const call = new RegExp(`\\b${name}\\s*(?:<[^>]*>)?\\(`);
  return among
    .filter((f) => call.test(withoutComments(readFileSync(f, "utf8"))))
    .map(rel)
    .sort();
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}

describe("the admission ladder", () => {
  it("is the only caller of the reservation outside server/quota/, for requests, bulk jobs and monitor runs", () => {
    const outsideQuota = (name: string) => callersOf(name).filter((f) => !f.startsWith("server/quota/"));
    expect(outsideQuota("admitMeteredRequest"), "admitMeteredRequest: only server/api/ladder.ts reserves").toEqual([
      "server/api/ladder.ts",
    ]);
    expect(outsideQuota("reserveUnits"), "reserveUnits: only server/api/ladder.ts reserves").toEqual([
      "server/api/ladder.ts",
    ]);
    expect(callersOf("reserveUnitsGrouped")).toEqual(["server/quota/admission.ts", "server/quota/grouped-reserve.ts"]);
    expect(outsideQuota("reserveOne"), "reserveOne: server/quota/reserve.ts's own").toEqual([]);
    // The lower functions are not imported around the ladder either (an alias would escape the call scan).
    const importers = files
      .filter((f) => !rel(f).startsWith("server/quota/"))
      .filter((f) =>
        /import\s[^;]*\b(?:reserveUnits|admitMeteredRequest|reserveUnitsGrouped)\b[^;]*from/.test(
          readFileSync(f, "utf8"),
        ),
      )
      .map(rel);
    expect(importers).toEqual(["server/api/ladder.ts"]);
  });

  it("bulk jobs and monitor runs reserve with the ladder's step for a job's payer, handed in by the API layer", () => {
    for (const f of ["server/bulk/jobs.ts", "server/monitors/run.ts"]) {
      const code = withoutComments(readFileSync(path.join(root, f), "utf8"));
      expect(code, f).toMatch(/bulkProcedures\(\)\.reserveJob\(/);
      expect(code, f).not.toMatch(/\breserveUnits\b/);
    }
    const registration = readFileSync(path.join(root, "server/api/bulk-procedures.ts"), "utf8");
    expect(registration).toMatch(/reserveJob: reserveJobUnits/);
    expect(registration).toMatch(/charging: JOB_CHARGING/);
  });

  it("the builders and the doors call the ladder's steps and keep none of their own", () => {
    // The parts of each step have no caller but the ladder (and the module that defines them).
    const parts: Record<string, string[]> = {
      authenticateCaller: ["server/api/ladder.ts", "server/quota/admission.ts"],
      refusalAfterFailure: ["server/api/ladder.ts", "server/quota/admission.ts"],
      requirementRefusal: ["server/api/contract.ts", "server/api/ladder.ts"],
      screenInput: ["server/api/input-screen.ts", "server/api/ladder.ts"],
      // And the account routes' adapter, once (respond.ts refuseUnknownParameters): each of those routes reads its own
      // query or body and calls its procedure with the input it builds, so the ladder never sees what it was sent.
      unknownFieldsProblem: ["server/api/http/respond.ts", "server/api/input-fields.ts", "server/api/ladder.ts"],
      recordLookupHistory: ["server/api/ladder.ts", "server/history/history.ts"],
      markHistoryUndelivered: ["server/api/ladder.ts", "server/history/history.ts"],
    };
    for (const [part, callers] of Object.entries(parts)) expect(callersOf(part), part).toEqual(callers);
    // In the API layer the burst limit and the giving back are the ladder's alone (a bulk job and a monitor run give
    // back to their payer in server/bulk/ and server/monitors/, with charging.ts's answers), and nothing else there
    // reaches the key cache's admission.
    const api = files.filter((f) => rel(f).startsWith("server/api/"));
    expect(callersOf("consumeRateLimit", api)).toEqual(["server/api/ladder.ts"]);
    expect(callersOf("refundUnits", api)).toEqual(["server/api/ladder.ts"]);
    expect(api.filter((f) => /quota\/admission"/.test(readFileSync(f, "utf8"))).map(rel)).toEqual([
      "server/api/ladder.ts",
    ]);
    // The steps are called by the dashboard's builders (trpc.ts), and by a /v1 door only if it has a way of its own.
    const trpc = readFileSync(path.join(root, "server/api/trpc.ts"), "utf8");
    for (const step of ["admitCaller", "validateInput", "chargeAndRun", "enforceRateLimit"]) {
      expect(trpc).toContain(`${step}(`);
      for (const caller of callersOf(step))
        expect(
          ["server/api/ladder.ts", "server/api/trpc.ts"].includes(caller) || caller.startsWith("server/api/rest/"),
          `${step}: ${caller}`,
        ).toBe(true);
    }
  });

  it("says each step's contract above it", () => {
    const text = readFileSync(path.join(root, "server/api/ladder.ts"), "utf8");
    const exported = [...text.matchAll(/^export (?:async )?function (\w+)/gm)].map((m) => m[1]!);
    expect(exported).toEqual(
      expect.arrayContaining([
        "admitCaller",
        "validateInput",
        "parseInput",
        "enforceRateLimit",
        "chargeAndRun",
        "giveBack",
        "rememberCharged",
        "refundUndelivered",
        "undeliveredRefund",
        "reserveJobUnits",
      ]),
    );
    for (const name of exported) {
      const at = text.indexOf(`function ${name}`);
      const before = text
        .slice(0, at)
        .replace(/export (?:async )?$/, "")
        .trimEnd();
      expect(before.endsWith("*/"), `${name} has its contract in a comment above it`).toBe(true);
    }
  });

  it("the scan sees a call (the check can fail)", () => {
    const sample = path.join(root, "server/quota/admission.ts");
    expect(callersOf("admitMeteredRequest", [sample])).toEqual(["server/quota/admission.ts"]);
    expect(withoutComments("// admitMeteredRequest(x)\n/* reserveUnits( */ ok")).not.toMatch(/reserve|admit/);
    const jobs = path.join(root, "server/bulk/jobs.ts");
    expect(callersOf("planJob", [jobs])).toEqual(["server/bulk/jobs.ts"]);
    expect(callersOf("reserveUnits", [jobs])).toEqual([]);
  });
});
