// `npm run lint:openapi`: writes the served OpenAPI document to lint/out/openapi.json and lints it with Spectral
// (`spectral:oas`, lint/spectral.yaml) and Redocly (`recommended`, lint/redocly.yaml). Any error or warning fails,
// except the trailing slashes the spec imposes on four vulnerability paths (the documented exceptions in
// lint/spectral.yaml and lint/.redocly.lint-ignore.yaml). Runs offline; Redocly's telemetry is turned off.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.LOG_LEVEL ||= "silent";
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const lintDir = path.join(root, "lint");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

const { servedOpenApiDocument } = await import("./openapi-document");
mkdirSync(path.join(lintDir, "out"), { recursive: true });
writeFileSync(path.join(lintDir, "out", "openapi.json"), `${JSON.stringify(await servedOpenApiDocument(), null, 2)}\n`);

function run(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, {
      cwd: lintDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
  } catch (err) {
    // Both tools exit non-zero on findings; the reports are what counts.
    return String((err as { stdout?: string }).stdout ?? "");
  }
}

run(bin("spectral"), [
  "lint",
  "out/openapi.json",
  "--ruleset",
  "spectral.yaml",
  "-f",
  "json",
  "-o",
  "out/spectral.json",
  "--fail-severity",
  "warn",
]);
const spectral = JSON.parse(readFileSync(path.join(lintDir, "out", "spectral.json"), "utf8")) as {
  code: string;
  severity: number;
  path: string[];
  message: string;
}[];
const spectralProblems = spectral.filter((r) => r.severity <= 1);

const redoclyOut = run(bin("redocly"), ["lint", "out/openapi.json", "--format", "json"]);
let redocly: {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location?: { pointer?: string }[] }[];
};
try {
  redocly = JSON.parse(redoclyOut.slice(redoclyOut.indexOf("{")));
} catch {
  console.error("Redocly wrote no report: run `npx redocly lint lint/out/openapi.json` in lint/ to see why.");
  process.exit(1);
}

for (const p of spectralProblems) console.error(`spectral ${p.code}: ${p.message} at ${p.path.join(".")}`);
for (const p of redocly.problems ?? [])
  console.error(`redocly ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? "?"}`);
const redoclyCount = redocly.totals.errors + redocly.totals.warnings;
console.log(
  `OpenAPI lint: Spectral ${spectralProblems.length} problem(s); Redocly ${redoclyCount} problem(s), ${redocly.totals.ignored} documented exception(s).`,
);
process.exit(spectralProblems.length + redoclyCount > 0 ? 1 : 0);
