// POST /v1/cidr/check with a range written in IPv4-mapped IPv6 (::ffff:a.b.c.d/n, how a dual-stack host writes an
// IPv4 network): read as the IPv4 range it names, as a single mapped address is everywhere else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../harness";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";

let app: TestApp;
let dns: FakeDnsServer;
beforeAll(async () => {
  ({ app, dns } = await startAppWithFakeDns({ "2.0.0.127.zen.spamhaus.org": [{ type: "A", data: "127.0.0.2" }] }));
});
afterAll(() => dns.close());

describe("POST /v1/cidr/check with an IPv4-mapped range", () => {
  it("reads ::ffff:127.0.0.0/125 as 127.0.0.0/29: every address checked, 8 units", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/cidr/check", { key: ws.apiKey, body: { cidr: "::ffff:127.0.0.0/125" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cidr: "127.0.0.0/29", input: "::ffff:127.0.0.0/125", prefixLength: 29 });
    expect(res.body.addresses[0].ip).toBe("127.0.0.0");
    expect(res.body.summary.listedAddresses).toEqual(["127.0.0.2"]);
    expect(res.headers.get("x-service-quota-used")).toBe("8");
  });

  it("reads ::ffff:8.8.8.0/120 as 8.8.8.0/24 (7 sampled addresses) and clears host bits as for IPv4", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/cidr/check", { key: ws.apiKey, body: { cidr: "::ffff:8.8.8.9/120" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cidr: "8.8.8.0/24", prefixLength: 24, hostBitsCleared: true, units: 7 });
    expect(res.body.addresses.map((a: { ip: string }) => a.ip)).toContain("8.8.8.1");
    expect(res.headers.get("x-service-quota-used")).toBe("7");
  });

  it.each([
    ["::ffff:8.8.8.0/95", /IPv4-mapped.*\/96 to \/128/],
    ["::ffff:0:0/64", /IPv4-mapped.*\/96 to \/128/],
    ["::ffff:8.8.8.0/129", /prefix length/],
    ["2001:db8::/126", /Only IPv4 ranges/],
  ])("refuses %s with 400 in words and no unit", async (cidr, words) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/cidr/check", { key: ws.apiKey, body: { cidr } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toMatch(words);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});
