import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryDns, getDnsServers } from "../../server/providers/dns";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";

let dns: FakeDnsServer;
let second: FakeDnsServer;

beforeAll(async () => {
  dns = await startFakeDnsServer({
    records: {
      "example.test": [
        { type: "A", data: "192.0.2.10", ttl: 120 },
        { type: "AAAA", data: "2001:db8::10", ttl: 121 },
        { type: "MX", data: { preference: 10, exchange: "mx1.example.test" }, ttl: 3600 },
        { type: "NS", data: "ns1.example.test" },
        { type: "TXT", data: ["v=spf1 -all"] },
        {
          type: "SOA",
          data: {
            mname: "ns1.example.test",
            rname: "hostmaster.example.test",
            serial: 7,
            refresh: 1,
            retry: 2,
            expire: 3,
            minimum: 4,
          },
        },
        { type: "CAA", data: { flags: 0, tag: "issue", value: "letsencrypt.org" } },
      ],
      "www.example.test": [{ type: "CNAME", data: "example.test", ttl: 60 }],
      "_sip._tcp.example.test": [
        { type: "SRV", data: { priority: 1, weight: 5, port: 5060, target: "sip.example.test" } },
      ],
      "10.2.0.192.in-addr.arpa": [{ type: "PTR", data: "host.example.test" }],
      "deep.sub.example.test": [{ type: "A", data: "192.0.2.11" }],
      "big.example.test": Array.from({ length: 40 }, (_, i) => ({
        type: "TXT" as const,
        data: [`record-${i}-${"x".repeat(60)}`],
      })),
    },
  });
  second = await startFakeDnsServer({ records: { "example.test": [{ type: "A", data: "192.0.2.99" }] } });
});
afterAll(async () => {
  await dns.close();
  await second.close();
});
afterEach(() => {
  dns.down = false;
  dns.truncateUdp = false;
  dns.delayMs = 0;
  delete process.env.SERVICE_DNS_TIMEOUT_MS;
  delete process.env.SERVICE_UPSTREAM_TIMEOUT_MS;
  second.down = false;
});

const use = (...servers: FakeDnsServer[]) => {
  process.env.SERVICE_DNS_SERVERS = servers.map((s) => s.address).join(",");
};

describe("DNS client against a local resolver", () => {
  it("returns A records with their TTL and names the server that answered", async () => {
    use(dns);
    const r = await queryDns("Example.Test.", "A");
    expect(r.status).toBe("NOERROR");
    expect(r.records).toEqual([{ name: "example.test", type: "A", ttl: 120, value: "192.0.2.10", data: null }]);
    expect(r.server).toBe(dns.address);
    expect(r.servers).toEqual([dns.address]);
  });

  it.each([
    ["AAAA", "example.test", "2001:db8::10"],
    ["MX", "example.test", "10 mx1.example.test"],
    ["NS", "example.test", "ns1.example.test"],
    ["TXT", "example.test", '"v=spf1 -all"'],
    ["SOA", "example.test", "ns1.example.test hostmaster.example.test 7 1 2 3 4"],
    ["CAA", "example.test", '0 issue "letsencrypt.org"'],
    ["SRV", "_sip._tcp.example.test", "1 5 5060 sip.example.test"],
    ["PTR", "10.2.0.192.in-addr.arpa", "host.example.test"],
    ["CNAME", "www.example.test", "example.test"],
  ] as const)("decodes %s records", async (type, name, value) => {
    use(dns);
    const r = await queryDns(name, type);
    expect(r.status).toBe("NOERROR");
    expect(r.records.filter((x) => x.type === type).map((x) => x.value)).toEqual([value]);
  });

  it("follows a CNAME chain and returns the alias with the address", async () => {
    use(dns);
    const r = await queryDns("www.example.test", "A");
    expect(r.records.map((x) => [x.type, x.value, x.ttl])).toEqual([
      ["CNAME", "example.test", 60],
      ["A", "192.0.2.10", 120],
    ]);
  });

  it("tells NXDOMAIN from NODATA and keeps the negative-caching SOA", async () => {
    use(dns);
    const nx = await queryDns("missing.example.test", "A");
    expect(nx.status).toBe("NXDOMAIN");
    expect(nx.negativeSoa?.type).toBe("SOA");
    const nodata = await queryDns("deep.sub.example.test", "MX");
    expect(nodata.status).toBe("NODATA");
    const emptyNonTerminal = await queryDns("sub.example.test", "A");
    expect(emptyNonTerminal.status).toBe("NODATA");
  });

  it("retries over TCP when the UDP answer is truncated", async () => {
    use(dns);
    const r = await queryDns("big.example.test", "TXT");
    expect(r.status).toBe("NOERROR");
    expect(r.records).toHaveLength(40);
    expect(r.truncatedRetriedOverTcp).toBe(true);
    expect(r.attempts.map((a) => a.transport)).toEqual(["udp", "tcp"]);
  });

  it("reports SERVFAIL, not absence, when the resolver fails", async () => {
    use(dns);
    dns.setFailure("broken.example.test", "SERVFAIL");
    const r = await queryDns("broken.example.test", "A");
    expect(r.status).toBe("SERVFAIL");
    expect(r.server).toBeNull();
    dns.setFailure("broken.example.test", null);
  });

  it("times out on a resolver that is down and tries the next configured server", async () => {
    use(dns, second);
    dns.down = true;
    const r = await queryDns("example.test", "A", { timeoutMs: 200 });
    expect(r.status).toBe("NOERROR");
    expect(r.server).toBe(second.address);
    expect(r.records[0].value).toBe("192.0.2.99");
    expect(r.attempts.map((a) => a.outcome)).toEqual(["TIMEOUT", "NOERROR"]);
  });

  it("reports TIMEOUT when every resolver is down", async () => {
    use(dns);
    dns.down = true;
    process.env.SERVICE_DNS_TIMEOUT_MS = "150";
    const t0 = Date.now();
    const r = await queryDns("example.test", "A");
    expect(r.status).toBe("TIMEOUT");
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it("waits no longer than the upstream budget over all servers: a server is asked only with the time left", async () => {
    // Each down server would take SERVICE_DNS_TIMEOUT_MS; three of them the sum. The budget ends the query instead.
    use(dns, second, dns);
    dns.down = true;
    second.down = true;
    process.env.SERVICE_DNS_TIMEOUT_MS = "300";
    process.env.SERVICE_UPSTREAM_TIMEOUT_MS = "400";
    const asked = { first: dns.queries.length, second: second.queries.length };
    const r = await queryDns("example.test", "A");
    expect(r.status).toBe("TIMEOUT");
    // The first server had 300 ms, the second the 100 ms left, and the third (the first again) was never asked.
    expect(r.attempts.map((a) => a.outcome)).toEqual(["TIMEOUT", "TIMEOUT"]);
    expect(dns.queries.length - asked.first).toBe(1);
    expect(second.queries.length - asked.second).toBe(1);
  });

  it("reports ERROR, not a crash, when no usable resolver is configured", async () => {
    process.env.SERVICE_DNS_SERVERS = "not-a-server";
    const r = await queryDns("example.test", "A");
    expect(r.status).toBe("ERROR");
    // The settings check refuses it at start; a test that sets it later gets the same words.
    expect(r.attempts[0].detail).toMatch(
      /^SERVICE_DNS_SERVERS="not-a-server" is invalid: "not-a-server" is not a resolver address/,
    );
  });

  it("parses SERVICE_DNS_SERVERS with ports and IPv6 brackets", () => {
    process.env.SERVICE_DNS_SERVERS = "192.0.2.1, 127.0.0.1:5353,[2001:db8::1]:5300, 2001:db8::2";
    expect(getDnsServers().map((s) => s.label)).toEqual([
      "192.0.2.1:53",
      "127.0.0.1:5353",
      "[2001:db8::1]:5300",
      "[2001:db8::2]:53",
    ]);
  });
});
