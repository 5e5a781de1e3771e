// Probe agents (`npm run probe-agent`) behind one online check: three agents on 127.0.0.1, two answering and one
// down. Also the agent's own rules: bearer token, SSRF guard, rate limit, /healthz.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProbeAgent } from "../../server/online-check/agent";
import { createTestApp, type TestApp } from "../harness";
import { freePort } from "./server-process";

const TOKEN = "probe-token-for-tests";
let app: TestApp;
let target: Server;
let targetUrl = "";
const agents: ChildProcess[] = [];
const ports: number[] = [];

async function startAgentProcess(): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/probe-agent.ts"], {
    env: {
      ...process.env,
      SERVICE_PROBE_TOKEN: TOKEN,
      PROBE_AGENT_PORT: String(port),
      PROBE_AGENT_HOST: "127.0.0.1",
      SERVICE_ALLOW_PRIVATE_TARGETS: "1",
      LOG_LEVEL: "silent",
    },
    stdio: "ignore",
  });
  agents.push(child);
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return port;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("probe agent did not start");
}

beforeAll(async () => {
  app = await createTestApp();
  target = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", () => r()));
  targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/`;
  ports.push(...(await Promise.all([startAgentProcess(), startAgentProcess()])), await freePort());
}, 120_000);

afterAll(async () => {
  for (const a of agents) a.kill("SIGTERM");
  await new Promise((r) => target.close(r));
});

describe("online check with three probe agents", () => {
  it("reports two locations up and the one whose agent is down as probe_unavailable", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      SERVICE_PROBE_LOCATIONS: `eu=http://127.0.0.1:${ports[0]}/probe,us=http://127.0.0.1:${ports[1]}/probe,ap=http://127.0.0.1:${ports[2]}/probe`,
      SERVICE_PROBE_TOKEN: TOKEN,
      SERVICE_ALLOW_PRIVATE_TARGETS: "1",
    });
    try {
      const ws = await app.seedWorkspace({ plans: ["suite_business"] });
      const res = await app.request("POST", "/v1/online-check", { key: ws.apiKey, body: { url: targetUrl } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ online: true, upLocations: 2, totalLocations: 3 });
      const byName = Object.fromEntries(res.body.locations.map((l: { location: string }) => [l.location, l]));
      expect(byName.eu).toMatchObject({ reachable: true, up: true, status: 204, error: null });
      expect(byName.us).toMatchObject({ reachable: true, up: true, status: 204, error: null });
      expect(byName.ap).toMatchObject({
        reachable: false,
        up: false,
        status: null,
        error: { kind: "probe_unavailable" },
      });
      expect(res.body.sources.map((s: { detail: string }) => s.detail)).toEqual([
        "eu (remote probe agent)",
        "us (remote probe agent)",
        "ap (remote probe agent)",
      ]);
    } finally {
      for (const k of ["SERVICE_PROBE_LOCATIONS", "SERVICE_PROBE_TOKEN", "SERVICE_ALLOW_PRIVATE_TARGETS"]) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});

describe("the agent itself", () => {
  const post = (port: number, body: unknown, token: string | null = TOKEN) =>
    fetch(`http://127.0.0.1:${port}/probe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it("answers /healthz and refuses a missing or wrong token with 401", async () => {
    expect(await (await fetch(`http://127.0.0.1:${ports[0]}/healthz`)).json()).toEqual({ status: "ok" });
    for (const token of [null, "wrong"]) {
      const res = await post(ports[0], { url: targetUrl }, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: "UNAUTHORIZED", message: "Bearer token missing or wrong." } });
      expect(res.headers.get("www-authenticate")).toBe(
        token ? 'Bearer realm="probe", error="invalid_token"' : 'Bearer realm="probe"',
      );
    }
    // Another scheme is no bearer token, even carrying the right one: 401, and no RFC 6750 error code, which only a
    // Bearer credential gets.
    for (const credential of [`Basic ${Buffer.from("probe:pw").toString("base64")}`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await fetch(`http://127.0.0.1:${ports[0]}/probe`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: credential },
        body: JSON.stringify({ url: targetUrl }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="probe"');
    }
  });

  it("vets targets with the SSRF guard: a metadata address is refused with 400 TARGET_FORBIDDEN", async () => {
    const res = await post(ports[0], { url: "http://169.254.169.254/latest/meta-data/" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("TARGET_FORBIDDEN");
  });

  it("serves nothing else of the service", async () => {
    expect((await fetch(`http://127.0.0.1:${ports[0]}/v1/openapi.json`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${ports[0]}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${ports[0]}/probe`)).status).toBe(405);
  });

  it("limits probes per client address with 429 and Retry-After", async () => {
    const agent = createProbeAgent({ token: TOKEN, rateLimit: 2, windowSeconds: 60 });
    await new Promise<void>((r) => agent.listen(0, "127.0.0.1", () => r()));
    const port = (agent.address() as { port: number }).port;
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    try {
      expect((await post(port, { url: targetUrl })).status).toBe(200);
      expect((await post(port, { url: targetUrl })).status).toBe(200);
      const limited = await post(port, { url: targetUrl });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await limited.json()).error.code).toBe("RATE_LIMITED");
    } finally {
      delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
      await new Promise((r) => agent.close(r));
    }
  });
});

describe("npm run probe-agent with a setting it cannot use", () => {
  /** The agent's process with `env`: its exit code and stderr, or "still running" after 30 s. */
  function runAgent(env: Record<string, string>): Promise<{ code: number | null | string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/probe-agent.ts"], {
        env: { ...process.env, SERVICE_PROBE_TOKEN: TOKEN, PROBE_AGENT_HOST: "127.0.0.1", LOG_LEVEL: "silent", ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr!.on("data", (c) => (stderr += c));
      const timer = setTimeout(() => {
        child.kill("SIGTERM");
        resolve({ code: "still running", stderr });
      }, 30_000);
      child.on("exit", (code) => {
        clearTimeout(timer);
        resolve({ code, stderr: stderr.trim() });
      });
    });
  }

  it("exits 1 naming the variable, instead of running on the default", async () => {
    // PROBE_AGENT_PORT=abc used to listen on 3100, and a rate limit of 0 or "ten" ran with 120.
    for (const [name, value, says] of [
      ["PROBE_AGENT_PORT", "abc", 'PROBE_AGENT_PORT="abc" is invalid: it must be a whole number from 0 to 65535'],
      ["PROBE_AGENT_RATE_LIMIT", "0", 'PROBE_AGENT_RATE_LIMIT="0" is invalid: it must be a whole number of at least 1'],
      ["PROBE_AGENT_RATE_WINDOW_SECONDS", "ten", 'PROBE_AGENT_RATE_WINDOW_SECONDS="ten" is invalid'],
    ] as const) {
      const r = await runAgent({ [name]: value, PROBE_AGENT_PORT: name === "PROBE_AGENT_PORT" ? value : "0" });
      expect({ name, code: r.code }).toEqual({ name, code: 1 });
      expect(r.stderr).toContain(`probe agent: ${says}`);
    }
  }, 120_000);

  it("exits 1 saying so when its port is in use", async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", () => r()));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = await runAgent({ PROBE_AGENT_PORT: String(port) });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`probe agent: cannot listen on 127.0.0.1:${port}: the port is already in use`);
    } finally {
      await new Promise((r) => busy.close(r));
    }
  }, 60_000);
});
