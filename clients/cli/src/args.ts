// The command line of service-scan: flags, the lockfile and the two environment variables, checked before any request
// so that a mistake in a CI file is a usage error (exit 2) and never a charged scan.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { FAIL_ON, type FailOn } from "./policy-rule.js";
import {
  NAME_CHARACTERS,
  PROJECT_NAME,
  PROJECT_NAME_MAX,
  PROJECT_NAME_PARTS,
  PROJECT_NAME_PARTS_RULE,
} from "./project-name.js";

export { FAIL_ON, type FailOn };
export const FORMATS = ["text", "json", "sarif"] as const;
export type OutputFormat = (typeof FORMATS)[number];

/** The README's base: the service on its default port, /v1 included. */
export const DEFAULT_BASE_URL = "http://localhost:3000/v1";

/** The characters of a project name and a ref, in words; the rules are the service's own (./project-name.ts). */
const NAME_RULE = "1 to 100 of A-Z a-z 0-9 . _ / -";
const PROJECT_RULE = `1 to ${PROJECT_NAME_MAX} of A-Z a-z 0-9 . _ / -`;

export const USAGE = `Usage: service-scan <lockfile> [--fail-on high|critical|malware] [--format text|json|sarif] [--output <file>]
                    [--project <name> [--ref <ref>] [--base-ref <ref>] [--fail-on-new]]

Scans a lockfile or SBOM (package-lock.json, npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml, requirements.txt,
poetry.lock, Pipfile.lock, composer.lock, go.sum, go.mod, CycloneDX or SPDX JSON) with POST /v1/vulnerabilities/scan.

  --fail-on   malware: fail on malware only; critical: also on critical advisories;
              high (default): also on high advisories
  --format    text (default): a short summary; json: the service's JSON answer; sarif: a SARIF 2.1.0 log
  --output    write the report (in --format) to this file and print the text summary
  --project   keep the scan in this project's history (e.g. acme/web) and compare it with the latest scan of
              --base-ref: the findings it adds and the ones it fixes are printed first
  --ref       the branch or commit label the scan is kept under (default: default)
  --base-ref  the ref whose latest scan is the base (default: default)
  --fail-on-new
              apply the --fail-on policy only to the findings this scan adds, and write SARIF with only their
              results; needs --project
  --version   the version of service-scan
  --help      this text

Environment: SERVICE_API_KEY (required), SERVICE_API_URL (default ${DEFAULT_BASE_URL}).
Exit codes: 0 passed, 1 policy failed, 2 usage error, 3 service or network error.
`;

export class UsageError extends Error {}

export interface ScanCommand {
  /** The lockfile as given, for reading it. */
  lockfile: string;
  /** The lockfile relative to the repository root with "/" separators: the `path` sent, where SARIF results point. */
  repoPath: string;
  failOn: FailOn;
  format: OutputFormat;
  output: string | null;
  apiKey: string;
  baseUrl: string;
  /** The project's history and diff; null without --project. */
  project: { name: string; ref: string | null; baseRef: string | null; failOnNew: boolean } | null;
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${flag} must be one of ${allowed.join(", ")} (got "${value}")`);
}

/** `file` relative to `folder` when it lies inside it, else null. */
function inside(folder: string, file: string): string | null {
  const rel = path.relative(folder, file);
  return rel && rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel) ? rel : null;
}

/** The nearest folder at or above `folder` holding `.git` (a folder, or a file in a worktree or submodule), or null. */
function gitRoot(folder: string): string | null {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * The lockfile's path from the repository root, with "/" separators, whatever folder the command runs in: the root is
 * the nearest folder above the lockfile holding `.git`, else the CI's checkout (GITHUB_WORKSPACE, CI_PROJECT_DIR) when
 * the lockfile is in it, else the working folder when the lockfile is in it, else the lockfile's own folder. Code scanning places SARIF results by that path, and a project
 * compares each lockfile with its own path's last scan, so a job run from the lockfile's folder must name it in full.
 */
function repoPathOf(cwd: string, file: string, env: Record<string, string | undefined>): string {
  const full = path.resolve(cwd, file);
  const git = gitRoot(path.dirname(full));
  const ci = [env.GITHUB_WORKSPACE, env.CI_PROJECT_DIR]
    .map((dir) => dir?.trim())
    .find((dir) => dir && inside(path.resolve(cwd, dir), full) !== null);
  // The working folder only when the lockfile is in it: a path climbing out of its root ("../x/package-lock.json")
  // is no place code scanning can show, and would change with the folder the command runs in.
  const root = git ?? (ci ? path.resolve(cwd, ci) : inside(cwd, full) !== null ? cwd : path.dirname(full));
  return path.relative(root, full).split(path.sep).join("/");
}

/** The command, "help" or "version"; throws UsageError naming what is wrong. */
export function parseCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): ScanCommand | "help" | "version" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        "fail-on": { type: "string" },
        format: { type: "string" },
        output: { type: "string", short: "o" },
        project: { type: "string" },
        ref: { type: "string" },
        "base-ref": { type: "string" },
        "fail-on-new": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "V" },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (values.version) return "version";
  if (positionals.length !== 1) throw new UsageError("name exactly one lockfile");
  const failOn = oneOf("fail-on", values["fail-on"], FAIL_ON, "high");
  const format = oneOf("format", values.format, FORMATS, "text");
  if (values.output === "") throw new UsageError("--output needs a file name");
  const apiKey = env.SERVICE_API_KEY?.trim();
  if (!apiKey) throw new UsageError("set SERVICE_API_KEY to the workspace's API key");
  const baseUrl = env.SERVICE_API_URL?.trim() || DEFAULT_BASE_URL;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    throw new UsageError(`SERVICE_API_URL must be an http(s) URL such as ${DEFAULT_BASE_URL} (got "${baseUrl}")`);
  const lockfile = positionals[0]!;
  const project = projectOf(values);
  return {
    lockfile,
    repoPath: repoPathOf(cwd, lockfile, env),
    failOn,
    format,
    output: values.output ?? null,
    apiKey,
    baseUrl,
    project,
  };
}

function refFlag(flag: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  const ref = value.trim();
  if (!NAME_CHARACTERS.test(ref))
    throw new UsageError(`--${flag} must be ${NAME_RULE}, a branch or commit label (got "${value}")`);
  return ref;
}

/** --project and what only makes sense with it; a ref or --fail-on-new without a project is a mistake, not ignored. */
function projectOf(values: {
  project?: string;
  ref?: string;
  "base-ref"?: string;
  "fail-on-new"?: boolean;
}): ScanCommand["project"] {
  const ref = refFlag("ref", values.ref);
  const baseRef = refFlag("base-ref", values["base-ref"]);
  const failOnNew = values["fail-on-new"] ?? false;
  if (values.project === undefined) {
    const needsProject = [ref !== null && "--ref", baseRef !== null && "--base-ref", failOnNew && "--fail-on-new"];
    const given = needsProject.filter((f): f is string => typeof f === "string");
    if (given.length) throw new UsageError(`${given.join(", ")} ${given.length === 1 ? "needs" : "need"} --project`);
    return null;
  }
  const name = values.project.trim();
  // Only too long: a GitLab $CI_PROJECT_PATH (nested groups, each part up to 255) can be; the service keeps 140 (the
  // longest $GITHUB_REPOSITORY), so the pipeline must name the project itself. Its id is short and never changes.
  if (name.length > PROJECT_NAME_MAX && PROJECT_NAME_PARTS_RULE.test(name))
    throw new UsageError(
      `--project is ${name.length} characters, longer than the ${PROJECT_NAME_MAX} a project name may have (a GitLab $CI_PROJECT_PATH can be): pass a shorter name of your own, such as --project "gitlab/$CI_PROJECT_ID" (got "${values.project}")`,
    );
  if (!PROJECT_NAME.test(name))
    throw new UsageError(
      `--project must be ${PROJECT_RULE} ${PROJECT_NAME_PARTS}, such as acme/web (got "${values.project}")`,
    );
  return { name, ref, baseRef, failOnNew };
}
