// A local EPSS source on 127.0.0.1 answering FIRST's API shape (`GET /data/v1/epss?cve=CVE-1,CVE-2` -> { data: [{
// cve, epss, percentile, date }] }, numbers as strings as FIRST sends them), with scores for the fixtures' CVEs. A
// test can take it down (503) and read the CVE lists it was asked for.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeEpss = {
  url: string;
  down: boolean;
  /** The `cve` parameter of every request, in order. */
  asked: string[][];
  scores: Map<string, { epss: number; percentile: number }>;
  close(): Promise<void>;
};

export const EPSS_DATE = "2026-11-20";

/** Scores of the fixtures' CVEs (jquery's KEV-listed CVE scores highest). */
export const FIXTURE_EPSS: Record<string, { epss: number; percentile: number }> = {
  "CVE-2020-11023": { epss: 0.9731, percentile: 0.9994 },
  "CVE-2024-00001": { epss: 0.0123, percentile: 0.4521 },
  "CVE-2024-22195": { epss: 0.0021, percentile: 0.1015 },
};

export async function startFakeEpss(scores: Record<string, { epss: number; percentile: number }> = FIXTURE_EPSS) {
  let server: Server;
  const state = { down: false, asked: [], scores: new Map(Object.entries(scores)) } as unknown as FakeEpss;
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/data/v1/epss") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"status":"error"}');
      return;
    }
    const cves = (url.searchParams.get("cve") ?? "").split(",").filter(Boolean);
    state.asked.push(cves);
    if (state.down) {
      res.writeHead(503, { "content-type": "application/json" }).end('{"status":"unavailable"}');
      return;
    }
    const data = cves.flatMap((cve) => {
      const s = state.scores.get(cve.toUpperCase());
      return s ? [{ cve, epss: s.epss.toFixed(9), percentile: s.percentile.toFixed(9), date: EPSS_DATE }] : [];
    });
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ status: "OK", "status-code": 200, version: "1.0", total: data.length, data }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
