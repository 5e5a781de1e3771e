// A package source's connection that fails before any answer (a kept-alive socket the source closed as it was
// reused) is tried once more within the same timeout; a source that keeps failing so is "connection failed", and
// neither counts as more than one upstream call.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  clearUpstreamCache,
  fetchUpstream,
  resetUpstreamCalls,
  upstreamCallCounts,
} from "../../server/providers/packages/http";

let dropped = 0;
let dropNext = 0;
const server = http.createServer((req, res) => {
  if (dropNext > 0) {
    dropNext--;
    dropped++;
    req.socket.destroy();
    return;
  }
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: "left-pad" }));
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/left-pad`;
afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  dropped = 0;
  clearUpstreamCache();
  resetUpstreamCalls();
});

describe("package source connections", () => {
  it("answers after one dropped connection, as one call", async () => {
    dropNext = 1;
    const got = await fetchUpstream({ source: "npm", url }, (b) => JSON.parse(b) as { name: string });
    expect(got).toMatchObject({ kind: "ok", value: { name: "left-pad" } });
    expect(dropped).toBe(1);
    expect(upstreamCallCounts()).toEqual({ npm: 1 });
  });

  it("is unavailable (connection failed) when the second try is dropped too, and tries no third time", async () => {
    dropNext = 5;
    const got = await fetchUpstream({ source: "npm", url }, JSON.parse);
    expect(got).toEqual({ kind: "unavailable", url, reason: "connection failed" });
    expect(dropped).toBe(2);
    dropNext = 0;
  });
});
