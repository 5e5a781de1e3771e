// service-scan: scan a lockfile in CI and exit by policy. The exit code is the contract a pipeline reads: 0 passed,
// 1 the policy failed, 2 the command was wrong (nothing was sent, nothing charged), 3 the service or the network
// failed (with the service's error code, so a 402 or 403 in a CI log says what to change), or anything unforeseen.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseCommand, USAGE, UsageError } from "./args";
import { policyBreaches, policyLine } from "./policy";
import { requestScan } from "./request";
import { textSummary } from "./text-summary";

export const EXIT = { passed: 0, policyFailed: 1, usage: 2, service: 3 } as const;

export interface Io {
  env: Record<string, string | undefined>;
  cwd: string;
  out(text: string): void;
  err(text: string): void;
}

/** Reads the lockfile named relative to the command's working directory (io.cwd). */
async function readLockfile(file: string, cwd: string): Promise<string> {
  try {
    return await readFile(path.resolve(cwd, file), "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}: ${code === "ENOENT" ? "no such file" : (code ?? String(err))}`);
  }
}

async function run(argv: string[], io: Io): Promise<number> {
  const command = parseCommand(argv, io.env, io.cwd);
  if (command === "help") {
    io.out(USAGE);
    return EXIT.passed;
  }
  const lockfile = await readLockfile(command.lockfile, io.cwd);
  const result = await requestScan({ ...command, lockfile });
  if (!result.ok) {
    io.err(`service-scan: ${result.problem}\n`);
    return EXIT.service;
  }
  const breaches = policyBreaches(result.summary, command.failOn);
  const summary = `${textSummary(command.repoPath, result.lockfileFormat, result.summary)}\n${policyLine(command.failOn, breaches)}\n`;
  const report = command.format === "text" ? summary : `${result.body}\n`;
  if (command.output) {
    try {
      await writeFile(path.resolve(io.cwd, command.output), report);
    } catch (err) {
      throw new UsageError(`cannot write ${command.output}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    io.out(summary);
  } else if (command.format === "text") {
    io.out(summary);
  } else {
    // stdout stays the bare report for a pipe; the verdict goes to the log.
    io.out(report);
    io.err(`service-scan: ${policyLine(command.failOn, breaches)}\n`);
  }
  return breaches.length ? EXIT.policyFailed : EXIT.passed;
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
