// The /v1 requests the production server's front answers itself (scripts/http-front.mjs: an unknown method, a path
// with dot segments) are counted on /metrics as route="unmatched" in the request counter and in the duration
// histogram alike: the histogram's _count used to miss them, so rate(..._count) and rate(..._total) disagreed.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFront } from "../../scripts/http-front.mjs";
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
