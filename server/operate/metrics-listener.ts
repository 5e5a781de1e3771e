// SERVICE_METRICS_PORT: the scrape on its own listener (SERVICE_METRICS_HOST, default 127.0.0.1), so /metrics
// need not be reachable on the public port at all. It serves /metrics and the two probes, nothing else.
import { createServer, type Server } from "node:http";
import { setting } from "../env";
import { logger } from "./log";
import { healthzResponse, metricsResponse, readyzResponse } from "./probes";

const g = globalThis as unknown as { __serviceMetricsListener?: Server };

export async function startMetricsListener(): Promise<Server | null> {
  const port = setting("SERVICE_METRICS_PORT");
  if (port === null || g.__serviceMetricsListener) return g.__serviceMetricsListener ?? null;
  const host = setting("SERVICE_METRICS_HOST");
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://metrics.local");
    const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string> });
    let answer: Response;
    if (req.method !== "GET" && req.method !== "HEAD")
      answer = new Response(null, { status: 405, headers: { Allow: "GET" } });
    else if (url.pathname === "/metrics") answer = await metricsResponse(request, "metrics-port");
    else if (url.pathname === "/healthz") answer = healthzResponse();
    else if (url.pathname === "/readyz") answer = await readyzResponse();
    else answer = new Response("Not found.\n", { status: 404, headers: { "Cache-Control": "no-store" } });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(req.method === "HEAD" ? undefined : Buffer.from(await answer.arrayBuffer()));
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      const why =
        err.code === "EADDRINUSE"
          ? "the port is already in use"
          : err.code === "EACCES"
            ? "no permission to use the port"
            : err.message;
      reject(new Error(`SERVICE_METRICS_PORT=${port}: cannot listen on ${host}:${port}: ${why}`));
    });
    server.listen(Number(port), host, () => resolve());
  });
  server.unref();
  g.__serviceMetricsListener = server;
  logger().info({ host, port: Number(port) }, "metrics listener started");
  return server;
}

export async function stopMetricsListener(): Promise<void> {
  const s = g.__serviceMetricsListener;
  g.__serviceMetricsListener = undefined;
  if (s) await new Promise<void>((r) => s.close(() => r()));
}
