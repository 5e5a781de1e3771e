// An HTTP server on 127.0.0.1 that plays feed sources for `feeds refresh`: each path answers a fixed status and
// body, which a test can change between calls (good data, then an outage, then garbage).
//
//   const feeds = await startFeedServer({ "/tor": { body: "185.220.101.1\n" } });
//   process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FeedResponse {
  status?: number;
  body?: string | Buffer;
  contentType?: string;
  /** Delay before answering, to exercise the refresh timeout. */
  delayMs?: number;
}

export interface FakeFeedServer {
  url: string;
  hits: string[];
  set(path: string, response: FeedResponse): void;
  close(): Promise<void>;
}

export async function startFeedServer(routes: Record<string, FeedResponse> = {}): Promise<FakeFeedServer> {
  const table = new Map(Object.entries(routes));
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    hits.push(path);
    const r = table.get(path);
    // Every answer closes its connection: a kept-alive socket that this server closes after its idle timeout (5 s)
    // while a busy test process's client still counts it as open made the next refresh fail with "fetch failed"
    // (seen in test/feeds/refresh.test.ts and test/ip/anonymisers.test.ts under load).
    const send = () => {
      if (!r) return void res.writeHead(404, { "content-type": "text/plain", connection: "close" }).end("no such feed");
      res
        .writeHead(r.status ?? 200, { "content-type": r.contentType ?? "text/plain", connection: "close" })
        .end(r.body ?? "");
    };
    if (r?.delayMs) setTimeout(send, r.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    set: (path, response) => void table.set(path, response),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
