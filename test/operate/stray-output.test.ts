// Lines a library prints on the production server's stdout (Next.js: "✓ Running next.config.ts took 72ms") become
// JSON records (scripts/log.mjs routeStrayOutput). On a terminal Next.js colours them, and the escape sequences used
// to land in the record's msg ("\u001b[32m\u001b[1m✓\u001b[22m\u001b[39m Running next.config.ts took 195ms").
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const logModule = pathToFileURL(path.resolve(__dirname, "../../scripts/log.mjs")).href;

function strayLines(written: string): Record<string, unknown>[] {
  const script = `
    const { routeStrayOutput } = await import(${JSON.stringify(logModule)});
    routeStrayOutput();
    process.stdout.write(${JSON.stringify(written)});
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, LOG_FORMAT: "json", LOG_LEVEL: "info" },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("a library's own stdout lines", () => {
  it("become JSON records without the terminal's colour codes", () => {
    const records = strayLines(
      "\u001b[32m\u001b[1m✓\u001b[22m\u001b[39m Running next.config.ts took 195ms\n\u001b[33m\u001b[1m⚠\u001b[22m\u001b[39m Slow\n",
    );
    expect(records.map((r) => [r.source, r.msg])).toEqual([
      ["next", "✓ Running next.config.ts took 195ms"],
      ["next", "⚠ Slow"],
    ]);
  });

  it("pass a JSON line through as it is, and drop lines left empty", () => {
    const records = strayLines('{"level":30,"msg":"already a record"}\n\u001b[39m\n');
    expect(records).toEqual([{ level: 30, msg: "already a record" }]);
  });
});
