// service-scan installs alone (issue 46, item 3): `npm pack` in clients/cli builds the command to plain JavaScript
// (its prepack script runs tsc) and packs it; the tarball is installed with `npm install -g` into an empty folder,
// offline, where no node_modules of this repository can be found, and run as a child process the way a pipeline
// runs it (the exit code, stdout and stderr of a real process, a file written in its working folder) against the
// real REST handler served on 127.0.0.1 with the fake package sources. `npx <tarball>` runs it too.
import { execFile, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveRestApi } from "./rest-server";
import { createTestApp } from "../harness";
import { useFakeEpss, useFakePackageSources } from "../vulnerabilities/fake-sources";

useFakePackageSources();
useFakeEpss();
const app = await createTestApp();

const CLI_DIR = path.resolve(__dirname, "../../clients/cli");
const FIXTURES = path.resolve(__dirname, "../vulnerabilities/scan-fixtures");
const run = promisify(execFile);

let server: Server;
let baseUrl = "";
let temp = "";
let work = "";
let tarball = "";
let installed = "";
const seen: string[] = [];

/** What npm and npx are run with: a home of their own, and no registry call (not even the update check). */
const npmEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: temp,
  npm_config_update_notifier: "false",
});

/** npm with its cache in the temporary folder, offline: the package has nothing to download. */
function npm(args: string[], cwd: string) {
  const env: Record<string, string> = { ...npmEnv(), npm_config_cache: path.join(temp, "npm-cache") };
  const options = { cwd, env: env as NodeJS.ProcessEnv, timeout: 120_000 };
  return run("npm", [...args, "--offline", "--no-audit", "--no-fund"], options);
}

beforeAll(async () => {
  ({ server, baseUrl } = await serveRestApi(seen));

  temp = mkdtempSync(path.join(tmpdir(), "service-scan-pack-"));
  const packs = path.join(temp, "packs");
  mkdirSync(packs);
  await npm(["pack", "--pack-destination", packs], CLI_DIR);
  const [file] = readdirSync(packs);
  tarball = path.join(packs, file!);
  // `npm install -g` into a prefix of its own: an empty folder with nothing of this repository above it.
  installed = path.join(temp, "global");
  mkdirSync(installed);
  await npm(["install", "-g", "--prefix", installed, tarball], temp);

  // A checkout: the CLI runs in its root and is given paths relative to it, as in CI.
  work = path.join(temp, "checkout");
  mkdirSync(path.join(work, "app"), { recursive: true });
  copyFileSync(path.join(FIXTURES, "package-lock.json"), path.join(work, "app/package-lock.json"));
}, 180_000);

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(temp, { recursive: true, force: true });
});

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs a command as a child process (asynchronously: the service answering it lives in this process). */
function child(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string> = { ...npmEnv(), ...env };
    const proc = spawn(command, args, { cwd: work, env: all as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d) => (stdout += d));
    proc.stderr.on("data", (d) => (stderr += d));
    proc.on("error", reject);
    proc.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The installed command, by the link `npm install -g` made in the prefix's bin folder. */
const serviceScan = (args: string[], key: string) =>
  child(path.join(installed, "bin/service-scan"), args, { SERVICE_API_KEY: key, SERVICE_API_URL: baseUrl });

describe("the packed service-scan", () => {
  it("is plain JavaScript with no dependency: the tarball holds the bin, the built dist/ and no TypeScript", async () => {
    expect(path.basename(tarball)).toMatch(/^service-scan-\d+\.\d+\.\d+\.tgz$/);
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.trim().split("\n").sort();
    expect(files).toContain("package/bin/service-scan.mjs");
    expect(files).toContain("package/dist/main.js");
    expect(files).toContain("package/README.md");
    expect(files.filter((f) => /\.(ts|tsx|mts|cts)$/.test(f))).toEqual([]);
    const manifest = JSON.parse(
      readFileSync(path.join(installed, "lib/node_modules/service-scan/package.json"), "utf8"),
    );
    expect(manifest).not.toHaveProperty("dependencies");
    expect(manifest).not.toHaveProperty("private");
    expect(manifest.bin).toEqual({ "service-scan": "bin/service-scan.mjs" });
    // Nothing was installed beside it, and nothing of this repository is above it.
    expect(readdirSync(path.join(installed, "lib/node_modules"))).toEqual(["service-scan"]);
    expect(existsSync(path.join(temp, "node_modules"))).toBe(false);
  });

  it("says its version from the installed package", async () => {
    const scan = await serviceScan(["--version"], "");
    expect(scan.code).toBe(0);
    expect(scan.stdout).toMatch(/^service-scan \d+\.\d+\.\d+\n$/);
  });

  it("runs from the empty folder: --format sarif prints the SARIF log and the verdict, one scan charged", async () => {
    const ws = await app.seedWorkspace();
    seen.length = 0;
    const scan = await serviceScan(
      ["./app/package-lock.json", "--format", "sarif", "--fail-on", "critical"],
      ws.apiKey,
    );
    expect(scan.code).toBe(1);
    const log = JSON.parse(scan.stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.runs[0].artifacts[0].location.uri).toBe("app/package-lock.json");
    const malware = log.runs[0].results.find((r: any) => r.ruleId === "MAL-2026-0101");
    expect(malware).toMatchObject({ level: "error", properties: { package: "tinted-logs", version: "1.4.2" } });
    expect(scan.stderr).toContain("policy --fail-on critical: failed (1 malware package)");
    // One scan charged: the policy was read from the SARIF answer (a 503 retried on a loaded machine is given back).
    expect(new Set(seen)).toEqual(new Set(["POST /v1/vulnerabilities/scan?path=app%2Fpackage-lock.json"]));
    expect(await app.used(ws.workspaceId)).toBe(5);
  });

  it("--output writes the report in its working folder and prints the text summary", async () => {
    const ws = await app.seedWorkspace();
    const scan = await serviceScan(["app/package-lock.json", "--format", "json", "--output", "scan.json"], ws.apiKey);
    expect(scan.code).toBe(1);
    expect(scan.stdout).toContain("remove tinted-logs 1.4.2 (npm): reported as malware");
    expect(scan.stdout).toContain("policy --fail-on high: failed (1 malware package, 1 high advisory)");
    const answer = JSON.parse(readFileSync(path.join(work, "scan.json"), "utf8"));
    expect(answer.summary).toMatchObject({ packages: 5, malware: 1 });
  });

  it("exits 2 for a usage error and 3 when the service cannot be reached, as a process", async () => {
    const usage = await serviceScan(["app/package-lock.json", "--fail-on", "medium"], "sk_unused");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--fail-on must be one of high, critical, malware");
    // The project name rule is the service's own, and the tarball carries it.
    const name = await serviceScan(["app/package-lock.json", "--project", "acme/.."], "sk_unused");
    expect(name.code).toBe(2);
    expect(name.stderr).toContain('none empty and none only dots, such as acme/web (got "acme/..")');
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const down = await child(path.join(installed, "bin/service-scan"), ["app/package-lock.json"], {
      SERVICE_API_KEY: "sk_any",
      SERVICE_API_URL: `http://127.0.0.1:${port}/v1`,
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain(`cannot reach http://127.0.0.1:${port}/v1: ECONNREFUSED`);
  });

  it("npx ./service-scan-<version>.tgz runs it without installing it anywhere first", async () => {
    const ws = await app.seedWorkspace();
    copyFileSync(tarball, path.join(work, path.basename(tarball)));
    const args = ["--offline", "--yes", "--cache", path.join(temp, "npx-cache"), `./${path.basename(tarball)}`];
    const scan = await child("npx", [...args, "app/package-lock.json"], {
      SERVICE_API_KEY: ws.apiKey,
      SERVICE_API_URL: baseUrl,
    });
    expect(scan.stderr).not.toContain("service-scan:");
    expect(scan.code).toBe(1);
    expect(scan.stdout).toContain("app/package-lock.json (package-lock): 5 packages, ");
    expect(scan.stdout).toContain("policy --fail-on high: failed (1 malware package, 1 high advisory)");
  });

  it("npx runs a tarball named by an absolute path in the README's forms: file:<path> and --package=<path>", async () => {
    // A bare absolute path is run by npx as a program ("Permission denied", exit 126; clients/cli/README.md says why).
    const cache = ["--offline", "--yes", "--cache", path.join(temp, "npx-cache-abs")];
    for (const form of [[`file:${tarball}`], [`--package=${tarball}`, "service-scan"]]) {
      const run = await child("npx", [...cache, ...form, "--version"], {});
      expect(run.code, form.join(" ")).toBe(0);
      expect(run.stdout).toMatch(/^service-scan \d+\.\d+\.\d+\n$/);
    }
  });
});
