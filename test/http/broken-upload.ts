// A request whose upload breaks off after its first bytes, as a client that went away mid-upload leaves it: its body
// stream fails with ECONNRESET (test/http/entries.test.ts, test/operate/metrics.test.ts).
export function brokenUploadAssess(apiKey: string): Request {
  const gone = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent) return c.error(gone);
      sent = true;
      c.enqueue(new TextEncoder().encode('{"event":"login",'));
    },
  });
  return new Request("http://127.0.0.1:3000/v1/assess", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit);
}
