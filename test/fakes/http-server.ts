// Plain HTTP or HTTPS servers on 127.0.0.1 that play websites in tests: fixed routes with status, headers and body,
// or a handler. Every request is logged (method, path, Host header) so tests can assert what reached the server.
//
//   const site = await startHttpServer({ routes: { "/": { status: 301, headers: { location: "/home" } } } });
//   const tlsSite = await startHttpServer({ tls: leafCert, routes: { "/": { body: "ok" } } });
//   site.url  // "http://127.0.0.1:PORT"
import http from "node:http";
import https from "node:https";
import type { IssuedCert } from "./tls-server";

export type FakeRoute =
  | { status?: number; headers?: Record<string, string>; body?: string | Buffer; delayMs?: number }
  | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export type LoggedRequest = { method: string; path: string; host: string | undefined };

export type FakeHttpServer = {
  url: string;
  port: number;
  requests: LoggedRequest[];
  setRoute(path: string, route: FakeRoute): void;
  close(): Promise<void>;
};

export async function startHttpServer(
  opts: { routes?: Record<string, FakeRoute>; tls?: IssuedCert } = {},
): Promise<FakeHttpServer> {
  const routes = new Map(Object.entries(opts.routes ?? {}));
  const requests: LoggedRequest[] = [];
  const handler: http.RequestListener = (req, res) => {
    const urlPath = (req.url ?? "/").split("?")[0]!;
    requests.push({ method: req.method ?? "GET", path: req.url ?? "/", host: req.headers.host });
    const route = routes.get(urlPath);
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    if (typeof route === "function") return route(req, res);
    const send = () =>
      res.writeHead(route.status ?? 200, route.headers ?? { "content-type": "text/plain" }).end(route.body ?? "ok");
    if (route.delayMs) setTimeout(send, route.delayMs);
    else send();
  };
  const server = opts.tls
    ? https.createServer({ key: opts.tls.keyPem, cert: opts.tls.chainPem }, handler)
    : http.createServer(handler);
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `${opts.tls ? "https" : "http"}://127.0.0.1:${port}`,
    port,
    requests,
    setRoute: (p, r) => void routes.set(p, r),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
