// The CI snippets of clients/cli/README.md, read as a pipeline reads them: every service-scan command line parses (no
// usage error, exit 2, on a real runner), and the default branch's scan is filed under the project's default ref with
// pull and merge requests compared against it. A project is watched from its latest default-ref scan (a project
// monitor, the Projects page's watch toggle) and its chart counts that ref: the snippets filed main as `--ref main`,
// so a team that followed them could never watch its project (POST /v1/monitors answered 400 "no stored scan of its
// default ref") and its chart stayed empty.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseCommand, type ScanCommand } from "../../clients/cli/src/args";
import { DEFAULT_REF } from "../../clients/cli/src/project-name";

const README = readFileSync(path.resolve(__dirname, "../../clients/cli/README.md"), "utf8");
const yamlBlocks = [...README.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!));

/** Values a runner would put in the variables and expressions the snippets use. */
const SAMPLE: Record<string, string> = {
  GITHUB_REPOSITORY: "acme/web",
  GITHUB_REF_NAME: "main",
  GITHUB_BASE_REF: "main",
  CI_PROJECT_PATH: "acme/platform/web",
  CI_MERGE_REQUEST_IID: "42",
  CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
  CI_COMMIT_BRANCH: "main",
};

/** A shell command line as argv: variables expanded, double quotes removed, backslash-newlines joined. */
function argv(line: string): string[] {
  const expanded = line
    .replace(/\\\n/g, " ")
    .replace(/\$\{\{[^}]*\}\}/g, "42")
    .replace(/\$([A-Z_]+)/g, (_, name: string) => SAMPLE[name] ?? `<${name}>`);
  return [...expanded.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

function scanOf(line: string): ScanCommand {
  const args = argv(line);
  expect(args[0], line).toBe("service-scan");
  const command = parseCommand(args.slice(1), { SERVICE_API_KEY: "svc_live_x" }, "/repo");
  if (command === "help" || command === "version") throw new Error(`${line} asks for ${command}`);
  return command;
}

/** The service-scan command lines of a shell script (continuations joined). */
const commandsIn = (script: string) =>
  script
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("service-scan "));

describe("the GitHub Actions snippet", () => {
  const steps = yamlBlocks.find((b) => b?.jobs?.scan)!.jobs.scan.steps as Array<{ if?: string; run?: string }>;
  const scanStep = (event: string) => {
    const step = steps.find((s) => s.if?.includes(`'${event}'`) && s.run?.includes("service-scan "));
    return scanOf(step!.run!.trim());
  };

  it("files the default branch's push under the default ref, the one a project monitor watches", () => {
    const push = scanStep("push");
    expect(push.project).toMatchObject({ name: "acme/web", failOnNew: false });
    expect(push.project!.ref ?? DEFAULT_REF).toBe(DEFAULT_REF);
  });

  it("compares a pull request with that default ref and fails it only on what it adds", () => {
    const pr = scanStep("pull_request");
    expect(pr.project).toMatchObject({ name: "acme/web", ref: "pr-42", failOnNew: true });
    expect(pr.project!.baseRef ?? DEFAULT_REF).toBe(DEFAULT_REF);
    expect(pr.format).toBe("sarif");
  });
});

describe("the GitHub Actions snippet on a fork's pull request", () => {
  // GitHub's documentation: secrets cannot be read in `if:`; a job-level env set from one can, and is empty when
  // the run gets no secrets (a pull request from a fork).
  const job = () =>
    yamlBlocks.find((b) => b?.jobs?.scan)!.jobs.scan as {
      env: Record<string, string>;
      steps: Array<{ if?: string; run?: string; name?: string }>;
    };
  it("skips the scan with a notice when the key is empty, and never reads a secret in a condition", () => {
    const { env, steps } = job();
    expect(env.SERVICE_API_KEY).toBe("${{ secrets.SERVICE_API_KEY }}");
    for (const s of steps) expect(s.if ?? "", s.name).not.toMatch(/secrets\./);
    const pr = steps.find((s) => s.if?.includes("'pull_request'") && s.run?.includes("service-scan "))!;
    expect(pr.if).toContain("env.SERVICE_API_KEY != ''");
    const notice = steps.find((s) => s.if?.includes("'pull_request'") && s.if.includes("env.SERVICE_API_KEY == ''"))!;
    expect(notice.run).toMatch(/^echo "::notice::/);
    expect(notice.run).not.toContain("service-scan ");
  });
});

describe("the GitHub Actions job's permissions", () => {
  it("let upload-sarif send the log, in a private repository too", () => {
    const job = yamlBlocks.find((b) => b?.jobs?.scan)!.jobs.scan as {
      permissions: Record<string, string>;
      steps: Array<{ uses?: string }>;
    };
    expect(job.steps.some((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"))).toBe(true);
    // GitHub's code scanning documentation: security-events write to upload; actions read for private repositories.
    expect(job.permissions).toMatchObject({ contents: "read", "security-events": "write", actions: "read" });
  });
});

describe("the GitLab CI snippet", () => {
  const job = yamlBlocks.find((b) => b?.["dependency-scan"])!["dependency-scan"] as { script: string[] };
  const lines = job.script.flatMap(commandsIn);

  it("has one scan for merge requests and one for the default branch, both of which parse", () => {
    expect(lines).toHaveLength(2);
    const [mergeRequest, defaultBranch] = lines.map(scanOf);
    expect(mergeRequest!.project).toMatchObject({ name: "acme/platform/web", ref: "mr-42", failOnNew: true });
    expect(mergeRequest!.project!.baseRef ?? DEFAULT_REF).toBe(DEFAULT_REF);
    expect(defaultBranch!.project).toMatchObject({ name: "acme/platform/web", failOnNew: false });
    expect(defaultBranch!.project!.ref ?? DEFAULT_REF).toBe(DEFAULT_REF);
  });
});

describe("the repository README's example", () => {
  it("compares a pull request with the default ref, as the snippets do", () => {
    const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
    const flags = /`(--project [^`]*--fail-on-new[^`]*)`/.exec(readme)![1]!;
    const pr = scanOf(`service-scan package-lock.json ${flags}`);
    expect(pr.project).toMatchObject({ name: "acme/web", ref: "pr-42", failOnNew: true });
    expect(pr.project!.baseRef ?? DEFAULT_REF).toBe(DEFAULT_REF);
  });
});
