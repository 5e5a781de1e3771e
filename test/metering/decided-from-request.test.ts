// One charging rule on every metered route (issue 22, item 16): an answer decided from the request alone (a private
// or reserved address where a public one is needed, an RFC 6761 special-use name) comes before admission and costs
// nothing; an answer a provider gave (a resolver's NXDOMAIN, a registry's 404) counts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";
import type { TestApp } from "../harness";

let app: TestApp;
let dns: FakeDnsServer;
let saved: string | undefined;

beforeAll(async () => {
  ({ app, dns } = await startAppWithFakeDns({}));
  // The shipped default list (test/setup-env.ts narrows it for the fake `.test` zones).
  saved = process.env.SERVICE_SPECIAL_USE_NAMES;
  delete process.env.SERVICE_SPECIAL_USE_NAMES;
});
afterAll(async () => {
  if (saved !== undefined) process.env.SERVICE_SPECIAL_USE_NAMES = saved;
  await dns.close();
});

const FREE: [string, string, unknown, number, string][] = [
  ["GET", "/v1/ip/10.0.0.1/rdap", undefined, 404, "NOT_FOUND"],
  ["GET", "/v1/ip/192.168.1.1/abuse", undefined, 404, "NOT_FOUND"],
  ["GET", "/v1/ip/2001:db8::1/rdap", undefined, 404, "NOT_FOUND"],
  ["GET", "/v1/ip/127.0.0.1/abuse", undefined, 404, "NOT_FOUND"],
  ["GET", "/v1/host/foo.invalid/ssl", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/host/foo.test:8443/ssl", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/host/shop.example/status", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/foo.invalid/infrastructure", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/foo.invalid/rdap", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/foo.test/subdomains", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/printer.local/subdomains", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/foo.test/rdap", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/foo.localhost/rdap", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/www.foo.example/abuse", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["POST", "/v1/scans", { url: "https://foo.invalid/" }, 404, "DOMAIN_NOT_FOUND"],
  // A special-use name is decided before the SSRF guard, so it reads the same on the routes that connect; a name the
  // guard alone refuses (.lan) stays 400 TARGET_FORBIDDEN, free as well.
  ["GET", "/v1/host/localhost/ssl", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/host/printer.lan/ssl", undefined, 400, "TARGET_FORBIDDEN"],
  ["POST", "/v1/scans", { url: "https://foo.internal/" }, 404, "DOMAIN_NOT_FOUND"],
  ["POST", "/v1/online-check", { url: "https://kubernetes.default.svc.cluster.local/" }, 404, "DOMAIN_NOT_FOUND"],
  // Every route that takes a host name refuses a special-use one alike (DNS, mail posture, the domain overview):
  // on Kubernetes `*.svc.cluster.local` would have asked the service's own resolver, and charged for it.
  ["GET", "/v1/dns/lookup?domain=foo.internal", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=kubernetes.default.svc.cluster.local", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=localhost&type=AAAA", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=_dmarc.foo.internal&type=TXT", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=FOO.INTERNAL.", undefined, 404, "DOMAIN_NOT_FOUND"],
  // The names of hosts on the operator's own network: a PTR lookup of a private address or its reverse name.
  ["GET", "/v1/dns/lookup?domain=10.0.0.1&type=PTR", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=fd00::1&type=ptr", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=1.1.168.192.in-addr.arpa&type=PTR", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=16.172.in-addr.arpa&type=SOA", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=d.f.ip6.arpa&type=NS", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=1.0.0.127.in-addr.arpa&type=PTR", undefined, 404, "DOMAIN_NOT_FOUND"],
  // Names inside a private zone: a fifth label, an RFC 2317 classless delegation, an underscore label.
  ["GET", "/v1/dns/lookup?domain=1.1.1.168.192.in-addr.arpa&type=PTR", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=5.0-25.1.168.192.in-addr.arpa&type=PTR", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/dns/lookup?domain=_x.10.in-addr.arpa&type=TXT", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/email/security?domain=foo.internal", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/email/security?domain=nas.home.arpa", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/foo.invalid", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/printer.local", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/foo.internal/subdomains", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/domain/foo.internal/infrastructure", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/host/foo.internal/status", undefined, 404, "DOMAIN_NOT_FOUND"],
  ["GET", "/v1/asn/64512", undefined, 404, "NOT_FOUND"],
  ["GET", "/v1/asn/AS4200000000", undefined, 404, "NOT_FOUND"],
  ["GET", "/v1/asn/23456", undefined, 404, "NOT_FOUND"],
  ["GET", "/v1/asn/64496", undefined, 404, "NOT_FOUND"],
];

describe("answers decided from the request alone cost nothing", () => {
  it.each(FREE.map(([method, path, body, status, code]) => ({ method, path, body, status, code })))(
    "$method $path is $status $code and free",
    async ({ method, path, body, status, code }) => {
      const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
      const res = await app.request(method, path, { key: ws.apiKey, body });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(await app.used(ws.workspaceId)).toBe(0);
      expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
      expect(await app.db.lookupHistory.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
      // The next counted lookup is the workspace's first: X-Service-Quota-Used did not move.
      const next = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
      expect(next.status).toBe(200);
      expect(next.headers.get("x-service-quota-used")).toBe("1");
    },
  );

  it("names the name or address as it was sent, not capitalised", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const name = await app.request("GET", "/v1/domain/foo.test/rdap", { key: ws.apiKey });
    expect(name.body.error.message).toMatch(/^foo\.test is under \.test, a special-use name \(RFC 6761\) /);
    // Each suffix names where it is reserved, not RFC 6761 for all.
    const onion = await app.request("GET", "/v1/domain/abc.onion/rdap", { key: ws.apiKey });
    expect(onion.body.error.message).toMatch(/^abc\.onion is under \.onion, a special-use name \(RFC 7686, /);
    const home = await app.request("GET", "/v1/domain/nas.home.arpa/rdap", { key: ws.apiKey });
    expect(home.body.error.message).toContain("(RFC 8375, home networks)");
    const address = await app.request("GET", "/v1/ip/fd00::1/rdap", { key: ws.apiKey });
    expect(address.body.error.message).toMatch(/^fd00::1 is a /);
    // "0.0.0.0 is a unspecified address" read wrong: the article follows the word.
    for (const ip of ["0.0.0.0", "::"]) {
      const unspecified = await app.request("GET", `/v1/ip/${encodeURIComponent(ip)}/abuse`, { key: ws.apiKey });
      expect(unspecified.body.error.message).toContain(`${ip} is an unspecified address`);
    }
  });

  it("a name the resolver says does not exist needed a provider: the 404 counts, on hosts, infrastructure and scans alike", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const paths: [string, string, unknown][] = [
      ["GET", "/v1/host/nowhere.com/ssl", undefined],
      ["GET", "/v1/domain/nowhere.com/infrastructure", undefined],
      ["POST", "/v1/scans", { url: "https://nowhere.com/" }],
    ];
    for (const [i, [method, path, body]] of paths.entries()) {
      const res = await app.request(method, path, { key: ws.apiKey, body });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe("DOMAIN_NOT_FOUND");
      expect(await app.used(ws.workspaceId)).toBe(i + 1);
    }
  });

  it("the reverse name of public addresses is asked, and the message says whose names a private one holds", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const own = await app.request("GET", "/v1/dns/lookup?domain=10.1.2.3&type=PTR", { key: ws.apiKey });
    expect(own.body.error.message).toMatch(/^3\.2\.1\.10\.in-addr\.arpa is the reverse name of a private address/);
    // A zone is refused only when every address under it is not public: 192.in-addr.arpa also holds public ones.
    for (const domain of ["8.8.8.8", "192.in-addr.arpa", "2.ip6.arpa"]) {
      const res = await app.request("GET", `/v1/dns/lookup?domain=${domain}&type=PTR`, { key: ws.apiKey });
      expect(res.body.error?.code, domain).not.toBe("DOMAIN_NOT_FOUND");
    }
  });

  it("each route's description names its free answers", async () => {
    const doc = (await app.request("GET", "/v1/openapi.json")).body;
    const free = (path: string, method = "get") => doc.paths[path][method].description as string;
    expect(free("/ip/{ip}/rdap")).toContain("404 NOT_FOUND for a private, reserved or special-use address");
    expect(free("/domain/{domain}/infrastructure")).toMatch(/404 DOMAIN_NOT_FOUND for a special-use name/);
    expect(free("/host/{host}/ssl")).toMatch(
      /\*\*Free:\*\*.*400 TARGET_FORBIDDEN.*404 DOMAIN_NOT_FOUND for a special-use/,
    );
    expect(free("/ip/{ip}/geo")).toMatch(
      /\*\*Free:\*\* 400 INVALID_REQUEST, 401, 402 and 403 are answered before admission/,
    );
  });
});
