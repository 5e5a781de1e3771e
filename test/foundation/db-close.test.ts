// Closing the embedded database lets the queries it had already admitted finish and refuses later ones, instead of
// closing under them: PGlite runs a query admitted before close() after it, inside the exited module, and spins at
// full CPU forever (a test file whose background feed check outlived it never ended; a stopping server would hang).
// The scenario runs in a child process, so that a spinning close fails this test by its timeout instead of
// freezing the test worker.
import { spawn } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

// The embedded store's close, whatever DATABASE_URL says.
delete process.env.DATABASE_URL;

const root = path.resolve(__dirname, "../..");

it("finishes admitted queries, refuses later ones and closes", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "db-close-child.ts")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", SERVICE_DATA_DIR: "memory://" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  child.stderr.on("data", (d: Buffer) => (err += d));
  const code = await new Promise<number | string>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve("still running after 40 s");
    }, 40_000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c ?? "killed");
    });
  });
  expect(code, err).toBe(0);
  const result = JSON.parse(out.trim().split("\n").pop()!) as { queued: string[]; after: string };
  expect(result.queued).toEqual(["done", "done", "done", "done", "done"]);
  expect(result.after).toBe("refused: The embedded database is closed.");
}, 60_000);
