// PORT=0 (README: a whole number from 0 to 65535) lets the system pick a free port. The server logged
// "listening; starting the service" with the url http://127.0.0.1:0, so nobody could tell where it listened, and its
// warm-up of the pages went to port 0. It names the port it got, and so do the first run's demo credentials (they named
// http://localhost:0/dashboard: the workspace is seeded before the port is chosen, so they are written once it is).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOnce, startServerProcess } from "./server-process";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-port-zero-"));
beforeAll(() => buildOnce(), 600_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm start with PORT=0", () => {
  it("logs the address it listens on, with the port the system gave it", async () => {
    const server = await startServerProcess(
      { SERVICE_DATA_DIR: dataDir, DATABASE_URL: "", SERVICE_SCHEDULER: "0", SERVICE_SEED_DEMO: "1" },
      { port: 0 },
    );
    try {
      let url = "";
      const until = Date.now() + 120_000;
      while (!url && Date.now() < until && server.child.exitCode === null) {
        const line = server
          .output()
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as { msg: string; url?: string })
          .find((r) => r.msg === "listening; starting the service");
        url = line?.url ?? "";
        if (!url) await new Promise((r) => setTimeout(r, 200));
      }
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(new URL(url).port).not.toBe("0");
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const port = new URL(url).port;
      const file = path.join(dataDir, "demo-credentials.txt");
      const shown = Date.now() + 30_000;
      while (!existsSync(file) && Date.now() < shown) await new Promise((r) => setTimeout(r, 200));
      const text = readFileSync(file, "utf8");
      expect(text).toContain(`  Dashboard: http://localhost:${port}/dashboard   (sign in as `);
      expect(text).toMatch(
        new RegExp(`Try: +curl -H "Authorization: Bearer \\S+" http://localhost:${port}/v1/ip/8\\.8\\.8\\.8/geo`),
      );
      expect(text).not.toContain("localhost:0");
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }, 240_000);
});
