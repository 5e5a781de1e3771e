// A crt.sh-compatible certificate-transparency search on 127.0.0.1: GET /?q=%25.example.com&output=json answers the
// entries set for "example.com" (as crt.sh does: name_value holds the certificate's names, one per line).
//
//   const ct = await startCtServer({ "example.com": [ctEntry(["www.example.com", "*.api.example.com"], "2024-01-01")] });
//   process.env.SERVICE_CT_URL = ct.url;
//   ct.mode = "down";   // 502 for every request;  "hang": never answers;  "garbage": invalid JSON
import http from "node:http";

export type CrtShEntry = {
  id: number;
  issuer_name: string;
  common_name: string;
  name_value: string;
  entry_timestamp: string;
  not_before: string;
  not_after: string;
  serial_number: string;
};

let nextId = 1000;

/** An entry as crt.sh prints it: UTC timestamps without a zone. */
export function ctEntry(names: string[], notBefore: string, days = 90): CrtShEntry {
  const nb = new Date(`${notBefore}T00:00:00Z`);
  const na = new Date(nb.getTime() + days * 86_400_000);
  const fmt = (d: Date) =>
    d
      .toISOString()
      .replace("Z", "")
      .replace(/\.\d+$/, "");
  return {
    id: nextId++,
    issuer_name: "C=US, O=Let's Encrypt, CN=R11",
    common_name: names[0]!,
    name_value: names.join("\n"),
    entry_timestamp: fmt(new Date(nb.getTime() + 60_000)) + ".123",
    not_before: fmt(nb),
    not_after: fmt(na),
    serial_number: nextId.toString(16),
  };
}

export type FakeCtServer = {
  url: string;
  mode: "ok" | "down" | "hang" | "garbage";
  queries: string[];
  set(apex: string, entries: CrtShEntry[]): void;
  close(): Promise<void>;
};

export async function startCtServer(initial: Record<string, CrtShEntry[]> = {}): Promise<FakeCtServer> {
  const data = new Map(Object.entries(initial));
  const state = { mode: "ok" as FakeCtServer["mode"], queries: [] as string[] };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://localhost");
    const q = u.searchParams.get("q") ?? "";
    state.queries.push(q);
    if (state.mode === "hang") return;
    if (state.mode === "down")
      return void res.writeHead(502, { "content-type": "text/html" }).end("<h1>502 Bad Gateway</h1>");
    if (state.mode === "garbage")
      return void res.writeHead(200, { "content-type": "application/json" }).end("{not json");
    if (u.searchParams.get("output") !== "json") return void res.writeHead(400).end("output=json expected");
    const apex = q.replace(/^%\./, "");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(data.get(apex) ?? []));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    queries: state.queries,
    set: (apex, entries) => void data.set(apex, entries),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
