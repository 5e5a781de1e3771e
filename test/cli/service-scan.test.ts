// service-scan (issue 25, item 8), the CI command in clients/cli, against the real REST handler served on 127.0.0.1
// with the fake package sources: exit codes by policy, the service's error code on 402/403/400/401, usage errors that
// send nothing, one charged request per run. The cases call the command's main() with its arguments, environment,
// working directory and output streams, as bin/service-scan.mjs does; service-scan-pack.test.ts runs the packed and
// installed command as a child process, the way a pipeline runs it.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScanSummary } from "../../clients/cli/src/answer";
import { main } from "../../clients/cli/src/main";
import type { paths } from "../../clients/typescript/src/index";
import { serveRestApi } from "./rest-server";
import { createTestApp } from "../harness";
import { useFakeEpss, useFakePackageSources } from "../vulnerabilities/fake-sources";

const sources = useFakePackageSources();
useFakeEpss();
const app = await createTestApp();

// The command keeps its own copy of the answer's types (it installs without this repository): the generated client's
// summary must still fit it, or this file does not compile (npm run typecheck).
type GeneratedAnswer = paths["/vulnerabilities/scan"]["post"]["responses"][200]["content"]["application/json"];
export const generatedSummaryFits = (summary: GeneratedAnswer["summary"]): ScanSummary => summary;
const FIXTURES = path.resolve(__dirname, "../vulnerabilities/scan-fixtures");

let server: Server;
let baseUrl = "";
let work = "";
const seen: string[] = [];

/** A package-lock of one package (so any plan may scan it): @acme/widget 1.0.0, one high and one moderate advisory. */
const widgetLock = JSON.stringify({
  name: "widget-app",
  lockfileVersion: 3,
  requires: true,
  packages: {
    "": { name: "widget-app", dependencies: { "@acme/widget": "1.0.0" } },
    "node_modules/@acme/widget": { version: "1.0.0" },
  },
});
/** A CycloneDX SBOM of one component: log4j-core 2.14.1, a critical advisory (Log4Shell). */
const log4jSbom = JSON.stringify({
  bomFormat: "CycloneDX",
  specVersion: "1.5",
  version: 1,
  components: [
    {
      type: "library",
      name: "log4j-core",
      version: "2.14.1",
      purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1",
    },
  ],
});

beforeAll(async () => {
  ({ server, baseUrl } = await serveRestApi(seen));

  // A checkout: the CLI runs in its root and is given paths relative to it, as in CI.
  work = mkdtempSync(path.join(tmpdir(), "service-scan-"));
  for (const dir of ["app", "widget", "py", "java"]) mkdirSync(path.join(work, dir));
  copyFileSync(path.join(FIXTURES, "package-lock.json"), path.join(work, "app/package-lock.json"));
  copyFileSync(path.join(FIXTURES, "requirements-one.txt"), path.join(work, "py/requirements.txt"));
  copyFileSync(path.join(FIXTURES, "broken-lock.json"), path.join(work, "broken-lock.json"));
  writeFileSync(path.join(work, "widget/package-lock.json"), widgetLock);
  writeFileSync(path.join(work, "java/bom.json"), log4jSbom);
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(work, { recursive: true, force: true });
});

type Run = { code: number | null; stdout: string; stderr: string };
type Options = { key?: string | null; url?: string };

function cliEnv(opts: Options): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", SERVICE_API_URL: opts.url ?? baseUrl };
  if (typeof opts.key === "string") env.SERVICE_API_KEY = opts.key;
  return env;
}

/** Runs the command in this process: main() with the environment and working folder a child would be given. */
async function cli(args: string[], opts: Options = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    env: cliEnv(opts),
    cwd: work,
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

describe("service-scan exit codes by policy", () => {
  // Which files fail which policy: malware fails all three, advisories fail at or above the chosen severity.
  const table = [
    { file: "app/package-lock.json", what: "malware", malware: 1, critical: 1, high: 1 },
    { file: "java/bom.json", what: "a critical advisory", malware: 0, critical: 1, high: 1 },
    { file: "widget/package-lock.json", what: "a high advisory", malware: 0, critical: 0, high: 1 },
    { file: "py/requirements.txt", what: "only moderate advisories", malware: 0, critical: 0, high: 0 },
  ];
  for (const row of table) {
    it(`${row.file} (${row.what}) exits ${row.malware}/${row.critical}/${row.high} for malware/critical/high`, async () => {
      const ws = await app.seedWorkspace();
      const policies = ["malware", "critical", "high"] as const;
      const runs = await Promise.all(policies.map((p) => cli([row.file, "--fail-on", p], { key: ws.apiKey })));
      expect(runs.map((r) => r.code)).toEqual([row.malware, row.critical, row.high]);
      runs.forEach((r, i) =>
        expect(r.stdout).toContain(`policy --fail-on ${policies[i]}: ${r.code === 1 ? "failed" : "passed"}`),
      );
    });
  }

  it("fails on malware by default (high) and tells what to remove in the text summary", async () => {
    const ws = await app.seedWorkspace();
    const run = await cli(["app/package-lock.json"], { key: ws.apiKey });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("remove tinted-logs 1.4.2 (npm): reported as malware");
    expect(run.stdout).toContain("jquery 3.4.1 -> 3.5.0 (GHSA-jpcq-cgw6-v4j6)");
    expect(run.stdout).toContain("app/package-lock.json (package-lock): 5 packages");
    expect(run.stdout).toMatch(/policy --fail-on high: failed \(1 malware package, 1 high advisory\)/);
    // Malware comes before every upgrade.
    expect(run.stdout.indexOf("remove tinted-logs")).toBeLessThan(run.stdout.indexOf("jquery 3.4.1 ->"));
  });

  it("says which packages' supply-chain findings could not be checked, in every output format", async () => {
    const ws = await app.seedWorkspace();
    sources.current.downPackages.add("jquery");
    const text = await cli(["app/package-lock.json"], { key: ws.apiKey });
    const json = await cli(["app/package-lock.json", "--format", "json", "--output", "scan.json"], { key: ws.apiKey });
    const sarif = await cli(["app/package-lock.json", "--format", "sarif", "--output", "s.sarif"], { key: ws.apiKey });
    for (const run of [text, json, sarif]) {
      expect(run.stdout).toMatch(
        /not checked:\n {2}registry:npm partial: 1 of 4 packages could not be looked up \(.+\); supply-chain findings \(install scripts, maintainers, typosquats\) may be missing/,
      );
    }
    // With every source answering, nothing is said.
    sources.current.downPackages.clear();
    expect((await cli(["app/package-lock.json"], { key: ws.apiKey })).stdout).not.toContain("not checked");
  });

  it("a file with only moderate advisories really has advisories, and passes", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const run = await cli(["py/requirements.txt", "--format", "json", "--fail-on", "critical"], { key: ws.apiKey });
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer.summary.bySeverity).toEqual({ critical: 0, high: 0, moderate: 1, low: 0, unknown: 0 });
    expect(answer.packages.map((p: any) => `${p.name}@${p.version}`)).toEqual(["jinja2@2.10"]);
    expect(run.stderr).toContain("policy --fail-on critical: passed");
  });
});

describe("service-scan outputs", () => {
  it("--format json prints the service's JSON answer and the verdict on stderr", async () => {
    const ws = await app.seedWorkspace();
    const run = await cli(["app/package-lock.json", "--format", "json"], { key: ws.apiKey });
    expect(run.code).toBe(1);
    const answer = JSON.parse(run.stdout);
    expect(answer.format).toBe("package-lock");
    expect(answer.summary).toMatchObject({ packages: 5, malware: 1 });
    expect(answer.packages[0]).toMatchObject({ name: "tinted-logs", malware: true });
    expect(run.stderr).toContain("policy --fail-on high: failed (1 malware package, 1 high advisory)");
  });

  it("--format sarif prints the SARIF log located at the path given, in one charged request", async () => {
    const ws = await app.seedWorkspace();
    seen.length = 0;
    const run = await cli(["./app/package-lock.json", "--format", "sarif", "--fail-on", "critical"], {
      key: ws.apiKey,
    });
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.runs[0].artifacts[0].location.uri).toBe("app/package-lock.json");
    const malware = log.runs[0].results.find((r: any) => r.ruleId === "MAL-2026-0101");
    expect(malware).toMatchObject({ level: "error", properties: { package: "tinted-logs", version: "1.4.2" } });
    expect(run.stderr).toContain("policy --fail-on critical: failed (1 malware package)");
    // The policy was read from the SARIF answer itself: one request, five units, not ten.
    expect(seen).toEqual(["POST /v1/vulnerabilities/scan?path=app%2Fpackage-lock.json"]);
    expect(await app.used(ws.workspaceId)).toBe(5);
  });

  it("--output writes the report to the file and prints the text summary", async () => {
    const ws = await app.seedWorkspace();
    const run = await cli(["app/package-lock.json", "--format", "sarif", "--output", "scan.sarif"], {
      key: ws.apiKey,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("remove tinted-logs 1.4.2");
    expect(run.stdout).toContain("policy --fail-on high: failed");
    const log = JSON.parse(readFileSync(path.join(work, "scan.sarif"), "utf8"));
    expect(log.runs[0].results.length).toBeGreaterThan(0);
    expect(log.runs[0].properties.summary.malware).toBe(1);
  });
});

describe("service-scan errors", () => {
  const usage = [
    { args: ["app/package-lock.json"], key: null, says: "set SERVICE_API_KEY", name: "(no key)" },
    { args: ["app/package-lock.json"], key: " ", says: "set SERVICE_API_KEY", name: "(blank key)" },
    { args: ["missing/package-lock.json"], says: "cannot read missing/package-lock.json: no such file" },
    // A folder named instead of its lockfile said only "EISDIR".
    { args: ["app"], says: "cannot read app: it is a folder; name the lockfile in it" },
    {
      args: ["app/package-lock.json", "--fail-on", "medium"],
      says: "--fail-on must be one of high, critical, malware",
    },
    { args: ["app/package-lock.json", "--format", "xml"], says: "--format must be one of text, json, sarif" },
    { args: ["app/package-lock.json", "--fial-on", "high"], says: "Unknown option '--fial-on'" },
    { args: ["app/package-lock.json", "py/requirements.txt"], says: "name exactly one lockfile" },
    { args: [], says: "name exactly one lockfile" },
    { args: ["app/package-lock.json", "--fail-on-new"], says: "--fail-on-new needs --project" },
    {
      args: ["app/package-lock.json", "--ref", "pr-1", "--base-ref", "main"],
      says: "--ref, --base-ref need --project",
    },
    { args: ["app/package-lock.json", "--project", "acme web"], says: "--project must be 1 to 140 of A-Z" },
    // One past the longest $GITHUB_REPOSITORY (an owner of 39, "/", a repository name of 100).
    {
      args: ["app/package-lock.json", "--project", `${"o".repeat(39)}/${"r".repeat(101)}`],
      says: "--project is 141 characters, longer than the 140 a project name may have",
    },
    // A GitLab $CI_PROJECT_PATH (groups nest, each part up to 255) can pass 140 with every character allowed: the
    // command says it is the length, how long, and what to pass instead.
    ...[
      `${"platform-engineering-".repeat(5)}group/${"payments-".repeat(4)}team/checkout-web`,
      "a/".repeat(70) + "b",
    ].map((name) => ({
      args: ["app/package-lock.json", "--project", name],
      says: `--project is ${name.length} characters, longer than the 140 a project name may have (a GitLab $CI_PROJECT_PATH can be): pass a shorter name of your own, such as --project "gitlab/$CI_PROJECT_ID" (got "${name}")`,
    })),
    // Names the service refuses (server/projects/names.ts): the command applies the same rule before sending.
    ...[".", "..", "acme/..", "acme//web", "acme/web/", "/", "acme/./web"].map((name) => ({
      args: ["app/package-lock.json", "--project", name],
      says: `--project must be 1 to 140 of A-Z a-z 0-9 . _ / - in parts separated by single slashes, none empty and none only dots, such as acme/web (got "${name}")`,
    })),
    { args: ["app/package-lock.json", "--project", "acme/web", "--ref", "pr#1"], says: "--ref must be 1 to 100" },
    { args: ["app/package-lock.json", "--project", "acme/web", "--base-ref", ""], says: "--base-ref must be" },
    // An --output that cannot be written is known before the scan is sent (and charged).
    { args: ["app/package-lock.json", "--output", "no/such/folder/scan.txt"], says: "cannot write no/such/folder" },
    { args: ["app/package-lock.json", "--output", "app"], says: "cannot write app: it is a folder" },
  ];
  for (const u of usage) {
    it(`exits 2 and sends nothing: service-scan ${[...u.args, u.name ?? ""].join(" ").trim()}`, async () => {
      seen.length = 0;
      const run = await cli(u.args, { key: u.key === undefined ? "sk_unused" : u.key });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(u.says);
      expect(seen).toEqual([]);
    });
  }

  const refused = [
    { plans: ["suite_starter"], file: "app/package-lock.json", status: 403, code: "BULK_LOOKUPS_REQUIRED" },
    { plans: ["suite_business"], usedUnits: 25_000, file: "py/requirements.txt", status: 402, code: "QUOTA_EXCEEDED" },
    { plans: ["suite_business"], file: "broken-lock.json", status: 400, code: "INVALID_REQUEST" },
  ];
  for (const r of refused) {
    it(`exits 3 with the service's ${r.status} ${r.code}, and nothing is charged`, async () => {
      const ws = await app.seedWorkspace({ plans: r.plans, usedUnits: r.usedUnits });
      const run = await cli([r.file], { key: ws.apiKey });
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(`the service answered ${r.status} ${r.code}: `);
      expect(run.stdout).toBe("");
      expect(await app.used(ws.workspaceId)).toBe(r.usedUnits ?? 0);
    });
  }

  it("exits 3 with 401 UNAUTHORIZED for a key the service does not know", async () => {
    const run = await cli(["py/requirements.txt"], { key: "sk_not_a_key" });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("the service answered 401 UNAUTHORIZED");
  });

  it("exits 3 when the service cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const run = await cli(["py/requirements.txt"], { key: "sk_any", url: `http://127.0.0.1:${port}/v1` });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`cannot reach http://127.0.0.1:${port}/v1: ECONNREFUSED`);
  });

  it("exits 3 in words, not the page's markup, when a web page answers instead of the API", async () => {
    // A base address without /v1 reaches the dashboard's HTML 404; a proxy in front may answer its own HTML error page.
    const pages = createServer((req, res) => {
      const proxy = req.url?.startsWith("/proxy/");
      res.writeHead(proxy ? 502 : 404, { "content-type": "text/html; charset=utf-8" });
      res.end(
        proxy
          ? "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>"
          : '<!DOCTYPE html><html lang="en" class="x_variable"><head><meta charSet="utf-8"/><title>404: This page could not be found.</title></head><body></body></html>',
      );
    });
    await new Promise<void>((r) => pages.listen(0, "127.0.0.1", () => r()));
    const origin = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
    try {
      const noV1 = await cli(["py/requirements.txt"], { key: "sk_any", url: origin });
      expect(noV1.code).toBe(3);
      expect(noV1.stderr).toContain("the service answered 404 with a web page");
      expect(noV1.stderr).toContain("SERVICE_API_URL");
      expect(noV1.stderr).toContain("/v1");
      expect(noV1.stderr).not.toMatch(/<[a-z!]/i);
      const proxied = await cli(["py/requirements.txt"], { key: "sk_any", url: `${origin}/proxy/v1` });
      expect(proxied.code).toBe(3);
      expect(proxied.stderr).toContain('the service answered 502 with a web page ("502 Bad Gateway")');
      expect(proxied.stderr).not.toMatch(/<[a-z!]/i);
    } finally {
      await new Promise((r) => pages.close(r));
    }
  });

  it("says an empty 404 or 405 is not the API's answer and points at SERVICE_API_URL", async () => {
    // SERVICE_API_URL at the metrics listener (SERVICE_METRICS_PORT) printed only "the service answered 405 no body"
    // (found walking the CI command from a fresh clone); an empty 404 from another server read the same.
    const bare = createServer((req, res) => {
      res.writeHead(req.url?.startsWith("/gone/") ? 404 : 405);
      res.end();
    });
    await new Promise<void>((r) => bare.listen(0, "127.0.0.1", () => r()));
    const origin = `http://127.0.0.1:${(bare.address() as { port: number }).port}`;
    try {
      for (const [url, status] of [
        [`${origin}/v1`, 405],
        [`${origin}/gone/v1`, 404],
      ] as const) {
        const run = await cli(["py/requirements.txt"], { key: "sk_any", url });
        expect(run.code).toBe(3);
        expect(run.stderr).toContain(`the service answered ${status} with no body, not the API's answer`);
        expect(run.stderr).toContain("check that SERVICE_API_URL is the API's base address ending in /v1");
      }
    } finally {
      await new Promise((r) => bare.close(r));
    }
  });

  it("--version prints the package's version and exits 0 without a key", async () => {
    const version = JSON.parse(readFileSync(path.join(__dirname, "../../clients/cli/package.json"), "utf8")).version;
    for (const flag of ["--version", "-V"]) {
      const run = await cli([flag]);
      expect(run.code, flag).toBe(0);
      expect(run.stdout, flag).toBe(`service-scan ${version}\n`);
    }
    expect((await cli(["--help"])).stdout).toContain("--version");
  });

  it("--help prints the usage and exits 0 without a key", async () => {
    const run = await cli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--fail-on");
    expect(run.stdout).toContain("0 passed, 1 policy failed, 2 usage error, 3 service or network error");
    // Every file the README says the command reads (npm-shrinkwrap.json was missing from the help).
    const readme = readFileSync(path.join(__dirname, "../../clients/cli/README.md"), "utf8");
    const listed = /It reads the lockfile or SBOM \(([^;)]*)/.exec(readme)![1]!.replace(/\s+/g, " ");
    const help = run.stdout.replace(/\s+/g, " ");
    for (const name of listed.split(/, | or /).map((n) => n.replace(/ JSON$/, "").trim())) expect(help).toContain(name);
  });
});
