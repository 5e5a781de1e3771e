// A webhook receiver on 127.0.0.1 for tests: records every delivery (headers and raw body) and answers with the
// next status from a queue (then `defaultStatus`), so tests can script failures followed by success.
//
//   const rx = await startWebhookReceiver();
//   rx.url                 // "http://127.0.0.1:PORT/hook"
//   rx.respondWith(500)    // the next delivery gets a 500
//   rx.received[0].body    // raw JSON string, exactly as signed
import http from "node:http";

export type ReceivedDelivery = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };

export type WebhookReceiver = {
  url: string;
  received: ReceivedDelivery[];
  respondWith(...statuses: number[]): void;
  close(): Promise<void>;
};

export async function startWebhookReceiver(opts: { defaultStatus?: number } = {}): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const queue: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const status = queue.shift() ?? opts.defaultStatus ?? 204;
      res.writeHead(status, { "content-type": "text/plain" }).end(status >= 300 ? "nope" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    respondWith: (...statuses) => void queue.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
