// The lockfile path service-scan sends (the `path` a project's diff compares by, and where SARIF results point) is
// relative to the repository root, not to the folder the command runs in: two CI jobs that each scan from their
// lockfile's own folder (`working-directory: docs`) sent `path=package-lock.json` alike, so each still compared with
// the other's scans, and code scanning could not place the results on docs/package-lock.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommand, type ScanCommand } from "../../clients/cli/src/args";

let top: string;

beforeEach(() => {
  top = mkdtempSync(path.join(tmpdir(), "service-scan-root-"));
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

/** Makes the folders and an empty file at each path under the temporary folder. */
function files(...paths: string[]) {
  for (const p of paths) {
    const full = path.join(top, p);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, "");
  }
}

function repoPath(lockfile: string, cwd: string, env: Record<string, string> = {}): string {
  const command = parseCommand([lockfile], { SERVICE_API_KEY: "svc_live_x", ...env }, path.join(top, cwd));
  return (command as ScanCommand).repoPath;
}

describe("service-scan's lockfile path is relative to the repository root", () => {
  it("from the lockfile's own folder, names it from the nearest folder holding a .git folder", () => {
    mkdirSync(path.join(top, "repo/.git"), { recursive: true });
    files("repo/package-lock.json", "repo/docs/package-lock.json");
    expect(repoPath("package-lock.json", "repo/docs")).toBe("docs/package-lock.json");
    expect(repoPath("package-lock.json", "repo")).toBe("package-lock.json");
    expect(repoPath("docs/package-lock.json", "repo")).toBe("docs/package-lock.json");
    expect(repoPath("../package-lock.json", "repo/docs")).toBe("package-lock.json");
    expect(repoPath(path.join(top, "repo/docs/package-lock.json"), "repo")).toBe("docs/package-lock.json");
  });

  it("takes a .git file (a worktree or a submodule) as the root too, the nearest one first", () => {
    mkdirSync(path.join(top, "super/.git"), { recursive: true });
    files("super/mod/.git", "super/mod/web/yarn.lock");
    expect(repoPath("yarn.lock", "super/mod/web")).toBe("web/yarn.lock");
  });

  it("without a .git above it, names it from GITHUB_WORKSPACE or CI_PROJECT_DIR when the lockfile is under it", () => {
    files("ws/docs/package-lock.json", "other/package-lock.json");
    const ws = path.join(top, "ws");
    expect(repoPath("package-lock.json", "ws/docs", { GITHUB_WORKSPACE: ws })).toBe("docs/package-lock.json");
    expect(repoPath("package-lock.json", "ws/docs", { CI_PROJECT_DIR: ws })).toBe("docs/package-lock.json");
    // A lockfile outside the workspace: relative to the working folder, as before.
    expect(repoPath("package-lock.json", "other", { GITHUB_WORKSPACE: ws })).toBe("package-lock.json");
  });

  it("with neither, names it from the working folder", () => {
    files("plain/docs/package-lock.json");
    expect(repoPath("package-lock.json", "plain/docs")).toBe("package-lock.json");
    expect(repoPath("docs/package-lock.json", "plain")).toBe("docs/package-lock.json");
  });

  it("never climbs out of its root: a lockfile outside the working folder is named from its own folder", () => {
    // `service-scan /elsewhere/package-lock.json` run from another folder, with no .git above the lockfile, sent
    // `path=../elsewhere/package-lock.json` and SARIF results at that uri, which code scanning cannot place; the
    // path also changed with the folder the command ran in, so its project's scans were compared with nothing
    // (found walking the CI command from a folder outside the repository).
    files("elsewhere/package-lock.json", "ci/.keep");
    expect(repoPath(path.join(top, "elsewhere/package-lock.json"), "ci")).toBe("package-lock.json");
    expect(repoPath("../elsewhere/package-lock.json", "ci")).toBe("package-lock.json");
    // A GITHUB_WORKSPACE the lockfile is not in does not change that.
    expect(repoPath("../elsewhere/package-lock.json", "ci", { GITHUB_WORKSPACE: path.join(top, "ci") })).toBe(
      "package-lock.json",
    );
  });
});
