// start.mjs writes its server's pid to server.pid at once and, when that server exits, undoes the write: it put back
// the pid it had replaced whatever the exit, so a server stopped normally left server.pid naming an older server
// that had long gone instead of no file. Only a refused server (another still running holds the folder) puts back.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recordServerPid } from "../../scripts/server-pid.mjs";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-server-pid-"));
  dirs.push(dir);
  return dir;
}

async function goneProcessPid(): Promise<number> {
  const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((r) => gone.on("exit", r));
  return gone.pid!;
}

describe("server.pid around a server start.mjs started", () => {
  it("names the new server, and is removed when it exits while the pid it replaced names no running process", async () => {
    const dir = folder();
    const file = path.join(dir, "server.pid");
    writeFileSync(file, String(await goneProcessPid()));
    const exited = recordServerPid(dir, 4_000_000);
    expect(readFileSync(file, "utf8")).toBe("4000000");
    exited();
    expect(existsSync(file)).toBe(false);
  });

  it("names the running server again when the new one was refused", () => {
    const dir = folder();
    const file = path.join(dir, "server.pid");
    const running = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      writeFileSync(file, String(running.pid));
      const exited = recordServerPid(dir, 4_000_001);
      expect(readFileSync(file, "utf8")).toBe("4000001");
      exited();
      expect(readFileSync(file, "utf8")).toBe(String(running.pid));
    } finally {
      running.kill("SIGKILL");
    }
  });

  it("is removed after a first server exits, and left alone when another server has written it since", () => {
    const dir = folder();
    const file = path.join(dir, "server.pid");
    recordServerPid(dir, 4_000_002)();
    expect(existsSync(file)).toBe(false);
    const exited = recordServerPid(dir, 4_000_003);
    writeFileSync(file, String(process.pid));
    exited();
    expect(readFileSync(file, "utf8")).toBe(String(process.pid));
  });

  it("leaves a data folder it cannot create to the server, which says why in one line", () => {
    // SERVICE_DATA_DIR=/proc/x: start.mjs hung at full CPU here (Node's recursive mkdir), and failing fast it would
    // end with a stack trace while the server it had started was the one to name the folder.
    const exited = recordServerPid(`/proc/svc-server-pid-${process.pid}/data`, 4_000_009);
    expect(typeof exited).toBe("function");
    exited();
  });
});
