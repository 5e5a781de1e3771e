// One admission ladder (issue 44, item 1): the steps are the named functions of server/api/ladder.ts, each with its
// contract; the tRPC builders and the plain /assess door call them and keep no step of their own; and the ladder is
// the only caller of a request's reservation. The jobs' and the monitors' own reservations (their payer's, described
// in server/api/charging.ts) are the only other reservations.
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
  it("is the only caller of a request's reservation", () => {
    expect(callersOf("admitMeteredRequest"), "admitMeteredRequest: only server/api/ladder.ts reserves").toEqual([
      "server/api/ladder.ts",
      "server/quota/admission.ts",
    ]);
    expect(callersOf("reserveUnitsGrouped")).toEqual(["server/quota/admission.ts", "server/quota/grouped-reserve.ts"]);
    // A bulk job and a monitor run reserve for their items and checks (their payer's reservation).
    expect(callersOf("reserveUnits").filter((f) => !f.startsWith("server/quota/"))).toEqual([
      "server/bulk/jobs.ts",
      "server/monitors/run.ts",
    ]);
  });

  it("the builders and the plain door call the ladder's steps and keep none of their own", () => {
    const doors = ["server/api/trpc.ts", "server/api/rest/assess-door.ts"].map((f) => path.join(root, f));
    for (const step of [
      "authenticateCaller",
      "refusalAfterFailure",
      "requirementRefusal",
      "screenInput",
      "unknownFieldsProblem",
      "consumeRateLimit",
      "refundUnits",
      "recordLookupHistory",
    ])
      expect(callersOf(step, doors), step).toEqual([]);
    for (const door of doors) {
      const text = readFileSync(door, "utf8");
      expect(text, rel(door)).toMatch(/from "\.\.?\/(?:\.\.\/)?ladder"|from "\.\/ladder"/);
      expect(text, rel(door)).not.toMatch(/quota\/admission"/);
    }
    const door = readFileSync(path.join(root, "server/api/rest/assess-door.ts"), "utf8");
    for (const step of ["admitCaller", "validateInput", "parseInput", "chargeAndRun"])
      expect(door).toContain(`${step}(`);
    const trpc = readFileSync(path.join(root, "server/api/trpc.ts"), "utf8");
    for (const step of ["admitCaller", "validateInput", "chargeAndRun", "enforceRateLimit"])
      expect(trpc).toContain(`${step}(`);
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
  });
});
