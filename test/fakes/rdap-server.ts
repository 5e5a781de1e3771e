// An RDAP server on 127.0.0.1 (RFC 9082 paths, RFC 9083 bodies) for the RDAP lookups: objects by path
// ("ip/8.8.8.8", "autnum/15169", "domain/example.com"); anything else answers 404 like a registry. A test can make
// it fail (HTTP 500) to play an outage. IP queries match any address inside a registered network's range.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRdapServer {
  url: string;
  requests: string[];
  /** Registers an object for an exact path, e.g. "domain/example.com". */
  set(path: string, body: Record<string, unknown>): void;
  /** Answers every request with this HTTP status (null: normal service). */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

export async function startRdapServer(objects: Record<string, Record<string, unknown>> = {}): Promise<FakeRdapServer> {
  const table = new Map(Object.entries(objects));
  const requests: string[] = [];
  let failure: number | null = null;
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!.replace(/^\/+/, ""));
    requests.push(path);
    if (failure !== null)
      return void res.writeHead(failure, { "content-type": "text/plain" }).end("service unavailable");
    const body = table.get(path);
    if (!body) {
      res.writeHead(404, { "content-type": "application/rdap+json" });
      return void res.end(JSON.stringify({ errorCode: 404, title: "Not Found", rdapConformance: ["rdap_level_0"] }));
    }
    res
      .writeHead(200, { "content-type": "application/rdap+json" })
      .end(JSON.stringify({ rdapConformance: ["rdap_level_0"], ...body }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    set: (path, body) => void table.set(path, body),
    failWith: (status) => void (failure = status),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A jCard entity as registries publish them. */
export function vcardEntity(o: {
  handle: string;
  roles: string[];
  fn: string;
  email?: string;
  tel?: string;
  country?: string;
  entities?: unknown[];
}) {
  const props: unknown[] = [
    ["version", {}, "text", "4.0"],
    ["fn", {}, "text", o.fn],
  ];
  if (o.email) props.push(["email", {}, "text", o.email]);
  if (o.tel) props.push(["tel", { type: "voice" }, "uri", `tel:${o.tel}`]);
  if (o.country) props.push(["adr", { cc: o.country }, "text", ["", "", "", "", "", "", o.country]]);
  return {
    objectClassName: "entity",
    handle: o.handle,
    roles: o.roles,
    vcardArray: ["vcard", props],
    entities: o.entities ?? [],
  };
}
