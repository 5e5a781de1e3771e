// The /v1 requests the production server's front answers itself (scripts/http-front.mjs: an unknown method, a path
// with dot segments) are counted on /metrics as route="unmatched" in the request counter and in the duration
// histogram alike: the histogram's _count used to miss them, so rate(..._count) and rate(..._total) disagreed.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientError, answerConnect, createFront } from "../../scripts/http-front.mjs";
import { countUnrouted, startupGate } from "../../scripts/startup-gate.mjs";
import { metrics } from "../../server/operate/metrics";

let server: http.Server;
let port = 0;

beforeAll(async () => {
  metrics(); // the process's registry, on globalThis where the front finds it
  const handler = createFront(
    startupGate((_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    }),
  );
  server = http.createServer(handler);
  countUnrouted(server);
  server.on("clientError", answerClientError);
  server.on("connect", answerConnect);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as { port: number }).port;
});

afterAll(() => new Promise((r) => server.close(r)));

async function counts(labels: Record<string, string>): Promise<{ total: number; count: number }> {
  const json = await metrics().registry.getMetricsAsJSON();
  const pick = (name: string) =>
    Number(
      json
        .find((f) => f.name === name)
        ?.values.find(
          (v) =>
            (name.endsWith("_total") || (v as { metricName?: string }).metricName === `${name}_count`) &&
            Object.entries(labels).every(([k, x]) => v.labels[k] === x),
        )?.value ?? 0,
    );
  return {
    total: pick("service_http_requests_total"),
    count: pick("service_http_request_duration_seconds"),
  };
}

function send(method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("requests the front answers", () => {
  it("count in the duration histogram as in the request counter", async () => {
    const other = { method: "other", route: "unmatched", status: "404" };
    const get = { method: "GET", route: "unmatched", status: "404" };
    const [other0, get0] = [await counts(other), await counts(get)];
    expect(await send("PROPFIND", "/v1/ip/8.8.8.8/geo")).toBe(404);
    expect(await send("GET", "/v1/../v1/ip/8.8.8.8/geo")).toBe(404);
    const [other1, get1] = [await counts(other), await counts(get)];
    expect({ total: other1.total - other0.total, count: other1.count - other0.count }).toEqual({ total: 1, count: 1 });
    expect({ total: get1.total - get0.total, count: get1.count - get0.count }).toEqual({ total: 1, count: 1 });
  });
});

/** Sends `bytes` as they are and returns the status line of the answer. */
function sendRaw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = "";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(bytes));
    socket.on("data", (d) => (got += d));
    socket.on("end", () => resolve(got.split("\r\n", 1)[0]));
    socket.on("error", reject);
  });
}

// Node hands CONNECT to the 'connect' listener, never to the request listener: it was answered but not counted.
describe("a CONNECT to /v1", () => {
  it('counts as route="unmatched" like any method the API does not register', async () => {
    const labels = { method: "other", route: "unmatched", status: "404" };
    const before = await counts(labels);
    expect(await sendRaw("CONNECT /v1/ip/8.8.8.8/geo HTTP/1.1\r\nHost: a\r\n\r\n")).toBe("HTTP/1.1 404 Not Found");
    const after = await counts(labels);
    expect({ total: after.total - before.total, count: after.count - before.count }).toEqual({ total: 1, count: 1 });
  });
});

// Requests Node's HTTP parser refuses never reach the request listener: they used to be missing from /metrics.
describe("requests Node's parser refuses", () => {
  it('count under route="unparsed", in the request counter and in the duration histogram', async () => {
    const badMethod = { method: "other", route: "unparsed", status: "404" };
    const badHeader = { method: "GET", route: "unparsed", status: "400" };
    const page = { method: "other", route: "unparsed", status: "400" };
    const [m0, c0, p0] = [await counts(badMethod), await counts(badHeader), await counts(page)];
    expect(await sendRaw("BREW /v1/coffee HTTP/1.1\r\nHost: a\r\n\r\n")).toBe("HTTP/1.1 404 Not Found");
    expect(await sendRaw("GET /v1/ip/8.8.8.8/geo HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n")).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    expect(await sendRaw("BREW /dashboard HTTP/1.1\r\nHost: a\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request");
    const [m1, c1, p1] = [await counts(badMethod), await counts(badHeader), await counts(page)];
    const moved = (a: { total: number; count: number }, b: { total: number; count: number }) => ({
      total: b.total - a.total,
      count: b.count - a.count,
    });
    expect([moved(m0, m1), moved(c0, c1), moved(p0, p1)]).toEqual([
      { total: 1, count: 1 },
      { total: 1, count: 1 },
      { total: 1, count: 1 },
    ]);
  });
});

// A request whose body breaks the parser after its head reached a route is that route's to count: the front answers
// the parser's 400 but does not count it again as "unparsed" (it counted one request twice).
describe("a body that breaks the parser after a route took the request", () => {
  it('is not counted as route="unparsed" as well', async () => {
    const reading = http.createServer((req, res) => {
      // A route that reads its body before it answers; the broken chunk ends the request without an answer here.
      req.on("data", () => undefined);
      req.on("end", () => res.end("{}"));
    });
    reading.on("clientError", answerClientError);
    await new Promise<void>((r) => reading.listen(0, "127.0.0.1", () => r()));
    const own = (reading.address() as { port: number }).port;
    try {
      const labels = { method: "POST", route: "unparsed", status: "400" };
      const before = await counts(labels);
      const status = await new Promise<string>((resolve, reject) => {
        let got = "";
        const socket = net.connect(own, "127.0.0.1", () =>
          socket.write(
            "POST /v1/email/check HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n" +
              "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
          ),
        );
        socket.on("data", (d) => (got += d));
        socket.on("end", () => resolve(got.split("\r\n", 1)[0]!));
        socket.on("error", reject);
      });
      expect(status).toBe("HTTP/1.1 400 Bad Request");
      const after = await counts(labels);
      expect({ total: after.total - before.total, count: after.count - before.count }).toEqual({ total: 0, count: 0 });
      // While a request refused in its head still counts.
      expect(await sendRaw("POST /v1/email/check HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n")).toBe(
        "HTTP/1.1 400 Bad Request",
      );
      expect((await counts(labels)).total - after.total).toBe(1);
    } finally {
      await new Promise((r) => reading.close(r));
    }
  });
});
