// service-scan in a project's history (issue 46, item 2): --project, --ref and --base-ref file the scan and compare it
// with the base ref's latest scan; --fail-on-new applies the policy to what the change adds (diff.new) alone, the
// log shows the new and fixed findings first, and the SARIF report keeps only the new results. Against the real
// REST handler on 127.0.0.1 with the fake package sources, and one fake service answering an older service's
// recorded answer (no diff) for the case where a policy on what is new must not fall back to the whole scan.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../clients/cli/src/main";
import { serveRestApi } from "./rest-server";
import { createTestApp } from "../harness";
import { useFakeEpss, useFakePackageSources } from "../vulnerabilities/fake-sources";

useFakePackageSources();
useFakeEpss();
const app = await createTestApp();

let server: Server;
let baseUrl = "";
let work = "";
const seen: string[] = [];
/** The distinct requests seen: a 503 the command retried (a loaded machine's cold start) is the same request, given back. */
const requests = () => [...new Set(seen)];

/** A package-lock.json v3 of the given package versions. */
function packageLock(packages: Record<string, string>): string {
  const entries = Object.entries(packages).map(([name, version]) => [`node_modules/${name}`, { version }]);
  return JSON.stringify({
    name: "acme-web",
    lockfileVersion: 3,
    requires: true,
    packages: { "": { name: "acme-web", version: "1.0.0" }, ...Object.fromEntries(entries) },
  });
}

/** main: @acme/widget 1.0.0 with its old high advisory, jquery 3.4.1 with a moderate one, a clean tinted-logs. */
const MAIN = packageLock({ "@acme/widget": "1.0.0", jquery: "3.4.1", "tinted-logs": "1.4.3" });
/** A change that moves tinted-logs to its malicious release and @acme/widget to the version that fixes it. */
const CHANGE = packageLock({ "@acme/widget": "1.0.1", jquery: "3.4.1", "tinted-logs": "1.4.2" });

beforeAll(async () => {
  ({ server, baseUrl } = await serveRestApi(seen));
  work = mkdtempSync(path.join(tmpdir(), "service-scan-project-"));
  for (const [dir, lock] of [
    ["main", MAIN],
    ["change", CHANGE],
  ]) {
    mkdirSync(path.join(work, dir!));
    writeFileSync(path.join(work, dir!, "package-lock.json"), lock!);
  }
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(work, { recursive: true, force: true });
});

type Run = { code: number; stdout: string; stderr: string };

async function cli(args: string[], key: string, url = baseUrl): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    env: { SERVICE_API_KEY: key, SERVICE_API_URL: url },
    cwd: work,
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

describe("service-scan --project --fail-on-new against the service", () => {
  it("passes a change that keeps main's old high advisory, fails the one that adds malware, lists new and fixed first", async () => {
    const ws = await app.seedWorkspace();
    const project = ["--project", "acme/web"];

    // main's own run: the whole scan's policy, which the old high advisory fails.
    seen.length = 0;
    const onMain = await cli(["main/package-lock.json", ...project, "--ref", "main"], ws.apiKey);
    expect(onMain.code).toBe(1);
    expect(onMain.stdout).toContain("policy --fail-on high: failed (1 high advisory)");
    expect(onMain.stdout).toMatch(/^acme\/web main \(scan psc_\S+\): no earlier scan of the default ref/);
    expect(requests()).toEqual([
      "POST /v1/vulnerabilities/scan?path=main%2Fpackage-lock.json&project=acme%2Fweb&ref=main",
    ]);

    // A pull request that changes no dependency: the same high advisory, nothing new, so it passes.
    seen.length = 0;
    const pr = [...project, "--ref", "pr-1", "--base-ref", "main", "--fail-on-new"];
    const unchanged = await cli(["main/package-lock.json", ...pr], ws.apiKey);
    expect(unchanged.stderr).toBe("");
    expect(unchanged.code).toBe(0);
    expect(requests()).toEqual([
      "POST /v1/vulnerabilities/scan?path=main%2Fpackage-lock.json&project=acme%2Fweb&ref=pr-1&base_ref=main&fail_on_new=high",
    ]);
    const lines = unchanged.stdout.split("\n");
    expect(lines[0]).toMatch(/^acme\/web pr-1 \(scan psc_\S+\): compared with main \(scan psc_\S+ of \d{4}-/);
    expect(lines.slice(1, 3)).toEqual(["new: 0", "fixed: 0"]);
    expect(lines[3]).toMatch(/^unchanged: [1-9]\d*$/);
    expect(unchanged.stdout).toContain("advisories: 0 critical, 1 high");
    expect(unchanged.stdout).toContain("policy --fail-on high --fail-on-new: passed");

    // A pull request that adds the malicious tinted-logs 1.4.2 and moves @acme/widget to its fixing version.
    const change = await cli(["change/package-lock.json", ...pr], ws.apiKey);
    expect(change.code).toBe(1);
    const out = change.stdout;
    expect(out).toContain("new: 1\n  + tinted-logs 1.4.2 (npm): malware MAL-2026-0101\nfixed: ");
    expect(out).toMatch(/fixed: [1-9]\d*\n {2}- @acme\/widget 1\.0\.0 \(npm\): high GHSA-\S+, fixed in 1\.0\.1/);
    expect(out).toContain("policy --fail-on high --fail-on-new: failed (1 new malware package)");
    // The diff comes before the summary of the whole scan.
    expect(out.indexOf("+ tinted-logs")).toBeLessThan(out.indexOf("remove tinted-logs 1.4.2"));
    expect(await app.used(ws.workspaceId)).toBe(9);
  });

  it("re-running a default-branch job that failed --fail-on-new fails it again: a failed scan is not the next base", async () => {
    // The README's set-up for a default branch that should fail only on what a push adds: --fail-on-new on main too.
    // A push brings malware: exit 1. Run the same job again: the failed scan had become its own base, so nothing was
    // new and it passed (exit 0), though the malware was still there.
    const ws = await app.seedWorkspace();
    const onMain = ["--project", "acme/rerun", "--fail-on-new"];
    expect((await cli(["main/package-lock.json", "--project", "acme/rerun"], ws.apiKey)).code).toBe(1);
    expect((await cli(["main/package-lock.json", ...onMain], ws.apiKey)).code).toBe(0);
    const push = await cli(["change/package-lock.json", ...onMain], ws.apiKey);
    expect(push.code).toBe(1);
    expect(push.stdout).toContain("policy --fail-on high --fail-on-new: failed (1 new malware package)");
    const rerun = await cli(["change/package-lock.json", ...onMain], ws.apiKey);
    expect(rerun.stdout).toContain("new: 1\n  + tinted-logs 1.4.2 (npm): malware MAL-2026-0101\n");
    expect(rerun.stdout).toContain("policy --fail-on high --fail-on-new: failed (1 new malware package)");
    expect(rerun.code).toBe(1);
    // Reverting the push passes and is the next base again.
    expect((await cli(["main/package-lock.json", ...onMain], ws.apiKey)).code).toBe(0);
  });

  it("a new high advisory fails --fail-on-new at high and passes it at critical; fixing one passes", async () => {
    const ws = await app.seedWorkspace();
    const project = ["--project", "acme/docs", "--ref", "pr-3", "--fail-on-new"];
    expect((await cli(["change/package-lock.json", "--project", "acme/docs"], ws.apiKey)).code).toBe(1);
    // main/ moves @acme/widget back to 1.0.0 (its high advisory) and tinted-logs off its malicious release.
    const high = await cli(["main/package-lock.json", ...project], ws.apiKey);
    expect(high.code).toBe(1);
    expect(high.stdout).toMatch(/new: 1\n {2}\+ @acme\/widget 1\.0\.0 \(npm\): high GHSA-\S+, fixed in 1\.0\.1\n/);
    expect(high.stdout).toContain("  - tinted-logs 1.4.2 (npm): malware MAL-2026-0101");
    expect(high.stdout).toContain("policy --fail-on high --fail-on-new: failed (1 new high advisory)");
    const critical = await cli(["main/package-lock.json", ...project, "--fail-on", "critical"], ws.apiKey);
    expect(critical.code).toBe(0);
    expect(critical.stdout).toContain("policy --fail-on critical --fail-on-new: passed");
  });

  it("--fail-on-new with --format sarif writes only the new results; the log is read back, not charged again", async () => {
    const ws = await app.seedWorkspace();
    const project = ["--project", "acme/api"];
    expect((await cli(["main/package-lock.json", ...project], ws.apiKey)).code).toBe(1);
    seen.length = 0;
    const sarif = ["--format", "sarif", "--output", "new.sarif"];
    const run = await cli(
      ["change/package-lock.json", ...project, "--ref", "pr-2", "--fail-on-new", ...sarif],
      ws.apiKey,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("policy --fail-on high --fail-on-new: failed (1 new malware package)");
    const log = JSON.parse(readFileSync(path.join(work, "new.sarif"), "utf8"));
    expect(log.runs[0].artifacts[0].location.uri).toBe("change/package-lock.json");
    expect(log.runs[0].properties.onlyNew).toBe(true);
    expect(log.runs[0].results.map((r: any) => `${r.properties.package}@${r.properties.version} ${r.ruleId}`)).toEqual([
      "tinted-logs@1.4.2 MAL-2026-0101",
    ]);
    // The scan answered JSON (it has the diff); the SARIF log of the same stored scan is an unmetered read.
    const [scan, read, ...more] = requests();
    expect(scan).toBe(
      "POST /v1/vulnerabilities/scan?path=change%2Fpackage-lock.json&project=acme%2Fapi&ref=pr-2&fail_on_new=high",
    );
    expect(read).toMatch(/^GET \/v1\/projects\/acme%2Fapi\/scans\/psc_\S+$/);
    expect(more).toEqual([]);
    expect(await app.used(ws.workspaceId)).toBe(6);

    // Without --fail-on-new the report is the whole scan's.
    const all = await cli(["change/package-lock.json", ...project, "--ref", "pr-2", ...sarif], ws.apiKey);
    expect(all.code).toBe(1);
    const full = JSON.parse(readFileSync(path.join(work, "new.sarif"), "utf8"));
    expect(full.runs[0].results.length).toBeGreaterThan(1);
    expect(full.runs[0].properties.onlyNew).toBeUndefined();
  });

  it("--format json prints the answer with its diff and project; the verdict goes to stderr", async () => {
    const ws = await app.seedWorkspace();
    const run = await cli(
      ["change/package-lock.json", "--project", "acme/cli", "--fail-on-new", "--format", "json"],
      ws.apiKey,
    );
    expect(run.code).toBe(1);
    const answer = JSON.parse(run.stdout);
    expect(answer.project).toMatchObject({ name: "acme/cli", ref: "default" });
    expect(answer.diff.base).toBeNull();
    expect(answer.diff.new.find((f: any) => f.kind === "malware")).toMatchObject({
      name: "tinted-logs",
      version: "1.4.2",
    });
    expect(run.stderr).toContain("service-scan: policy --fail-on high --fail-on-new: failed (1 new malware package)\n");
  });
});

describe("service-scan --fail-on-new against a service that keeps no history", () => {
  it("exits 3 instead of judging the whole scan, when the answer has no diff", async () => {
    // The answer a service without projects gives: recorded from the real one, asked without a project.
    const ws = await app.seedWorkspace();
    const recorded = await cli(["change/package-lock.json", "--format", "json"], ws.apiKey);
    const old = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(recorded.stdout);
    });
    await new Promise<void>((r) => old.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(old.address() as { port: number }).port}/v1`;
    try {
      const run = await cli(["main/package-lock.json", "--project", "acme/web", "--fail-on-new"], "sk_any", url);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("the service's answer has no readable diff for --project");
    } finally {
      await new Promise((r) => old.close(r));
    }
  });
});

describe("service-scan --fail-on-new against a service from before fail_on_new", () => {
  it("asks once more without it when the service refuses the parameter, and judges what is new itself", async () => {
    // The older service: the real one, except that it refuses fail_on_new as the unknown query parameter it was.
    // The command sent it on every --fail-on-new run and exited 3 on the 400.
    const ws = await app.seedWorkspace();
    const asked: string[] = [];
    const older = createServer(async (req, res) => {
      asked.push(`${req.method} ${req.url}`);
      if (req.url?.includes("fail_on_new")) {
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({ error: { code: "INVALID_REQUEST", message: "Unknown query parameter: fail_on_new." } }),
        );
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await fetch(`${baseUrl.replace(/\/v1$/, "")}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(answer.status, { "Content-Type": answer.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => older.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(older.address() as { port: number }).port}/v1`;
    try {
      expect(
        (await cli(["main/package-lock.json", "--project", "acme/old", "--ref", "main"], ws.apiKey, url)).code,
      ).toBe(1);
      const pr = ["--project", "acme/old", "--ref", "pr-1", "--base-ref", "main", "--fail-on-new"];
      asked.length = 0;
      const unchanged = await cli(["main/package-lock.json", ...pr], ws.apiKey, url);
      expect(unchanged.stderr).toBe("");
      expect(unchanged.stdout).toContain("policy --fail-on high --fail-on-new: passed");
      expect(unchanged.code).toBe(0);
      expect(asked).toEqual([
        "POST /v1/vulnerabilities/scan?path=main%2Fpackage-lock.json&project=acme%2Fold&ref=pr-1&base_ref=main&fail_on_new=high",
        "POST /v1/vulnerabilities/scan?path=main%2Fpackage-lock.json&project=acme%2Fold&ref=pr-1&base_ref=main",
      ]);
      const change = await cli(["change/package-lock.json", ...pr], ws.apiKey, url);
      expect(change.stdout).toContain("new: 1\n  + tinted-logs 1.4.2 (npm): malware MAL-2026-0101\n");
      expect(change.stdout).toContain("policy --fail-on high --fail-on-new: failed (1 new malware package)");
      expect(change.code).toBe(1);
    } finally {
      await new Promise((r) => older.close(r));
    }
  });
});
