// service-scan: scan a lockfile in CI and exit by policy. The exit code is the contract a pipeline reads: 0 passed,
// 1 the policy failed, 2 the command was wrong (nothing was sent, nothing charged), 3 the service or the network
// failed (with the service's error code, so a 402 or 403 in a CI log says what to change), or anything unforeseen.
import { constants, readFileSync } from "node:fs";
import { access, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseCommand, USAGE, UsageError, type ScanCommand } from "./args.js";
import type { ScanAnswer } from "./answer.js";
import { diffLines, onlyNewResults, readFindings, type DiffFinding } from "./diff.js";
import { newBreaches, policyBreaches, policyLine } from "./policy.js";
import { requestScan } from "./request.js";
import { textSummary } from "./text-summary.js";

export const EXIT = { passed: 0, policyFailed: 1, usage: 2, service: 3 } as const;

export interface Io {
  env: Record<string, string | undefined>;
  cwd: string;
  out(text: string): void;
  err(text: string): void;
}

/** The version of the package this command came in: its package.json, one folder above src/ and dist/ alike. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
}

/** Reads the lockfile named relative to the command's working directory (io.cwd). */
async function readLockfile(file: string, cwd: string): Promise<string> {
  try {
    return await readFile(path.resolve(cwd, file), "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a folder; name the lockfile in it"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : (code ?? String(err));
    throw new UsageError(`cannot read ${file}: ${why}`);
  }
}

/**
 * Checks before anything is sent that --output can be written (an existing file we may write, else a folder we may
 * create it in), so a usage error never comes after a charged scan.
 */
async function checkWritable(file: string, cwd: string): Promise<void> {
  const target = path.resolve(cwd, file);
  const refuse = (why: string) => new UsageError(`cannot write ${file}: ${why}`);
  const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? String(err);
  try {
    if ((await stat(target)).isDirectory()) throw refuse("it is a folder");
    await access(target, constants.W_OK);
    return;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (code(err) !== "ENOENT") throw refuse(code(err));
  }
  try {
    await access(path.dirname(target), constants.W_OK);
  } catch (err) {
    throw refuse(code(err) === "ENOENT" ? "no such folder" : code(err));
  }
}

/** The report and the verdict of one answer: the project's diff first, then the summary, then the policy line. */
interface Outcome {
  summary: string;
  report: string;
  policy: string;
  failed: boolean;
}

/** The outcome of an answer; null when --project was given and the answer has no readable diff. */
function outcomeOf(command: ScanCommand, body: string, answer: ScanAnswer): Outcome | null {
  const { project, failOn, format } = command;
  let diff: { text: string; added: DiffFinding[] } | null = null;
  if (project) {
    const added = answer.diff && readFindings(answer.diff.new);
    const fixed = answer.diff && readFindings(answer.diff.fixed);
    // A policy on what is new cannot fall back to the whole scan: a missing diff is the service's failure.
    if (!answer.diff || !added || !fixed) return null;
    const where = { project: project.name, kept: answer.project, baseRef: project.baseRef };
    diff = { text: diffLines(where, answer.diff, added, fixed), added };
  }
  const onlyNew = project?.failOnNew ? diff : null;
  const breaches = onlyNew ? newBreaches(onlyNew.added, failOn) : policyBreaches(answer.summary, failOn);
  const policy = policyLine(failOn, Boolean(onlyNew), breaches);
  const summaryLines = [textSummary(command.repoPath, answer.format, answer.summary, answer.sources), policy];
  const summary = `${[...(diff ? [diff.text] : []), ...summaryLines].join("\n")}\n`;
  let report = format === "text" ? summary : `${body}\n`;
  if (format === "sarif" && onlyNew) report = `${onlyNewResults(body, onlyNew.added)}\n`;
  return { summary, report, policy, failed: breaches.length > 0 };
}

async function run(argv: string[], io: Io): Promise<number> {
  const command = parseCommand(argv, io.env, io.cwd);
  if (command === "help") {
    io.out(USAGE);
    return EXIT.passed;
  }
  if (command === "version") {
    io.out(`service-scan ${packageVersion()}\n`);
    return EXIT.passed;
  }
  const lockfileText = await readLockfile(command.lockfile, io.cwd);
  if (command.output) await checkWritable(command.output, io.cwd);
  const result = await requestScan({ ...command, lockfileText });
  if (!result.ok) {
    io.err(`service-scan: ${result.problem}\n`);
    return EXIT.service;
  }
  const outcome = outcomeOf(command, result.body, result.answer);
  if (!outcome) {
    io.err(`service-scan: the service's answer has no readable diff for --project (does it keep project history?)\n`);
    return EXIT.service;
  }
  if (command.output) {
    try {
      await writeFile(path.resolve(io.cwd, command.output), outcome.report);
    } catch (err) {
      // Checked writable before the scan, so the disk failed since: the scan was answered (and charged), and its
      // verdict is still printed; the run is a broken step, never a passed one.
      io.out(outcome.summary);
      io.err(
        `service-scan: the scan was answered but its report could not be written to ${command.output}: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n`,
      );
      return EXIT.service;
    }
    io.out(outcome.summary);
  } else if (command.format === "text") {
    io.out(outcome.summary);
  } else {
    // stdout stays the bare report for a pipe; the verdict goes to the log.
    io.out(outcome.report);
    io.err(`service-scan: ${outcome.policy}\n`);
  }
  return outcome.failed ? EXIT.policyFailed : EXIT.passed;
}

/** Runs one command and answers its exit code; never throws, so no failure can pass for a failed policy (1). */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    return await run(argv, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`service-scan: ${err.message} (service-scan --help for usage)\n`);
      return EXIT.usage;
    }
    io.err(`service-scan: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.service;
  }
}
