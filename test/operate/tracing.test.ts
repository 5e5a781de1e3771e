// Traces over OTLP/HTTP to a local receiver started by the test: one span per request named by its route
// template, with its database queries and upstream calls as children; nothing about the caller's key in a span.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakePackageSources, type FakePackageSources } from "../fakes/packages/server";
import { startTracing, type TraceHooks } from "../../server/operate/tracing";
import { createTestApp, type TestApp } from "../harness";

type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
};

let receiver: Server;
const spans: OtlpSpan[] = [];
const rawBodies: string[] = [];
let sources: FakePackageSources;
let app: TestApp;
let hooks: TraceHooks | null;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      rawBodies.push(text);
      if (req.url === "/v1/traces") {
        const body = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  hooks = await startTracing();
  sources = await startFakePackageSources();
  Object.assign(process.env, sources.env);
  app = await createTestApp();
});

afterAll(async () => {
  await hooks?.shutdown();
  await sources.close();
  await new Promise((r) => receiver.close(r));
});

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
};

describe("OTLP traces", () => {
  it("exports the request span with its database queries and upstream calls as descendants", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("GET", "/v1/vulnerabilities/npm/%40acme%2Fwidget/", { key: ws.apiKey });
    expect(res.status).toBe(200);
    await hooks!.forceFlush();

    const root = spans.find((s) => s.name === "GET /vulnerabilities/npm/{package}/");
    expect(root).toBeDefined();
    expect(root!.kind).toBe(2); // SERVER
    expect(attr(root!, "http.route")).toBe("/vulnerabilities/npm/{package}/");
    expect(Number(attr(root!, "http.response.status_code"))).toBe(200);
    expect(attr(root!, "service.request_id")).toBe(res.headers.get("x-request-id"));

    const inTrace = spans.filter((s) => s.traceId === root!.traceId && s !== root);
    const db = inTrace.filter((s) => s.name.startsWith("prisma:"));
    const upstream = inTrace.filter(
      (s) => s.kind === 3 && String(attr(s, "url.full") ?? attr(s, "server.address") ?? "").includes("127.0.0.1"),
    );
    expect(db.length).toBeGreaterThan(0);
    expect(upstream.length).toBeGreaterThan(0);
    expect(rawBodies.join("")).not.toContain(ws.apiKey);
  });

  it("is not started, and registers nothing, without an endpoint (a fresh process answering a request)", async () => {
    const script = [
      'const { handleRestRequest } = await import("./server/api/rest/handler.ts");',
      'const { startTracing } = await import("./server/operate/tracing.ts");',
      'const res = await handleRestRequest(new Request("http://127.0.0.1/v1/openapi.json"));',
      'console.log(JSON.stringify({ status: res.status, started: await startTracing(), otel: typeof globalThis[Symbol.for("opentelemetry.js.api.1")] }));',
    ].join("\n");
    const env: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: "silent" };
    delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "--input-type=module", "-e", script],
      { env: env as unknown as NodeJS.ProcessEnv, timeout: 120_000 },
    );
    expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual({ status: 200, started: null, otel: "undefined" });
  }, 130_000);
});
