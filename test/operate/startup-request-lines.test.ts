// The request log and /metrics hold the requests clients made, each once. Two ways they did not, at start-up:
// - start-up's own request for the OpenAPI document (scripts/startup-gate.mjs startBeforeListening, which makes Next
//   run the start-up and builds the document) was logged and counted as a client's `GET /openapi.json` at every start;
// - the 503 the start-up gate answers while it waits for the database had no request line, though it was counted.
// Wired as scripts/server.mjs wires them, with the real /v1 route's REST door.
import http, { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } from "../../app/v1/[[...path]]/route";
import { createFront } from "../../scripts/http-front.mjs";
import { answeredWithoutDatabase, routeLabel, directOr, type RestRoute } from "../../scripts/rest-direct.mjs";
import {
  countUnrouted,
  startBeforeListening,
  startupGate,
  STARTUP_REQUEST_HEADER,
} from "../../scripts/startup-gate.mjs";
import { metrics } from "../../server/operate/metrics";
import { processState } from "../../server/operate/state";
import { withLogLines } from "../log-lines";

const route: RestRoute = { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS };
let server: Server;
let base = "";
/** Requests that reached the handler behind the gate, and when each was answered. */
const answered: { url: string; done: Promise<void> }[] = [];

const handler = createFront(
  startupGate(
    (req: IncomingMessage, res: ServerResponse) => {
      answered.push({ url: req.url ?? "", done: new Promise((r) => res.once("finish", () => r())) });
      return directOr(route, (_req: IncomingMessage, next: ServerResponse) => next.end("from Next"))(req, res);
    },
    {
      answersWithoutDatabase: (req: IncomingMessage) => answeredWithoutDatabase(route, req),
      routeLabel: (req: IncomingMessage) => routeLabel(route, req),
    },
  ),
);

beforeAll(async () => {
  metrics(); // the process's registry, on globalThis where the front finds it
  server = createServer(handler);
  countUnrouted(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  Object.assign(processState(), { started: undefined, storeOpened: undefined, waitingForDatabase: undefined });
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function counted(labels: Record<string, string>): Promise<number> {
  const json = await metrics().registry.getMetricsAsJSON();
  const family = json.find((f) => f.name === "service_http_requests_total");
  return (family?.values ?? [])
    .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
    .reduce((n, v) => n + Number(v.value), 0);
}

const requestLines = (lines: string[]) =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.msg === "request");

function send(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("start-up's own request for the OpenAPI document", () => {
  it("is neither logged nor counted; a client's request for it is, once, even with a guessed header", async () => {
    const document = { route: "/openapi.json", method: "GET", status: "200" };
    const before = await counted(document);
    await withLogLines(async (lines) => {
      Object.assign(processState(), { started: false, storeOpened: false });
      answered.length = 0;
      // Stands for Next's start-up, which the first request runs: the store is open once it has arrived.
      await startBeforeListening((req: IncomingMessage, res: ServerResponse) => {
        processState().storeOpened = true;
        return handler(req, res);
      });
      expect(answered.map((a) => a.url)).toEqual(["/v1/openapi.json"]);
      await answered[0]!.done;
      expect(await counted(document)).toBe(before);
      expect(requestLines(lines)).toEqual([]);
      // The value served once: nothing else can be left out of the log with it.
      expect((globalThis as { __serviceStartupRequestToken?: string }).__serviceStartupRequestToken).toBeUndefined();

      expect((await send("GET", "/v1/openapi.json", { [STARTUP_REQUEST_HEADER]: "a guess" })).status).toBe(200);
      expect(await counted(document)).toBe(before + 1);
      expect(requestLines(lines)).toEqual([
        expect.objectContaining({ method: "GET", route: "/openapi.json", status: 200 }),
      ]);
    });
  }, 120_000);
});

describe("the gate's 503 while start-up waits for the database", () => {
  it("has its request line, with the fields of every other request line", async () => {
    await withLogLines(async (lines) => {
      Object.assign(processState(), { started: false, waitingForDatabase: "connection failed (ECONNREFUSED)" });
      try {
        const lookup = await send("GET", "/v1/ip/8.8.8.8/geo", { "X-Request-Id": "client-7" });
        expect(lookup.status).toBe(503);
        // Echoed as every other answer echoes a well-formed correlation id.
        expect(lookup.headers["x-client-request-id"]).toBe("client-7");
        const page = await send("GET", "/dashboard", { accept: "text/html" });
        expect(page.status).toBe(503);
        // A route that needs no database goes on to the door, which writes its own line (once).
        expect((await send("GET", "/v1/no-such-route")).status).toBe(404);
        const records = requestLines(lines);
        expect(records).toEqual([
          {
            level: 50,
            time: expect.any(String),
            pid: process.pid,
            msg: "request",
            request_id: lookup.headers["x-request-id"],
            client_request_id: "client-7",
            method: "GET",
            route: "/ip/{ip}/geo",
            status: 503,
            duration_ms: expect.any(Number),
            error_code: "UPSTREAM_UNAVAILABLE",
          },
          // The page load has none: the running server logs no page loads either.
          expect.objectContaining({ method: "GET", route: "unmatched", status: 404, error_code: "LOOKUP_NOT_FOUND" }),
        ]);
        // The same fields as the door's own line, in the same order (less what the gate cannot know).
        const keys = (r: Record<string, unknown>) => Object.keys(r).filter((k) => k !== "client_request_id");
        expect(keys(records[0]!)).toEqual(keys(records[1]!));
      } finally {
        Object.assign(processState(), { waitingForDatabase: undefined, started: undefined });
      }
    });
  }, 120_000);
});
