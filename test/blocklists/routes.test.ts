import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../harness";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";
import { callProcedure } from "../dns/call";

let app: TestApp;
let dns: FakeDnsServer;
beforeAll(async () => {
  ({ app, dns } = await startAppWithFakeDns({
    "2.0.0.127.zen.spamhaus.org": [{ type: "A", data: "127.0.0.2" }],
    "1.113.0.203.zen.spamhaus.org": [{ type: "A", data: "127.0.0.10" }],
  }));
});
afterAll(() => dns.close());

describe("blocklists.check", () => {
  it("checks one target on a plan without bulk, for one unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "blocklists.blocklistsCheck", { targets: ["127.0.0.2"] });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({
      target: "127.0.0.2",
      status: "listed",
      listedOn: ["zen.spamhaus.org"],
    });
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("charges one unit per submitted target with bulk", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const targets = ["127.0.0.2", "127.0.0.2", "192.0.2.1", "2001:db8::1", "example.test"];
    const res = await callProcedure(app, ws.apiKey, "blocklists.blocklistsCheck", { targets });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(5);
    expect(res.body.summary.targets).toBe(5);
    expect(res.headers.get("x-service-quota-used")).toBe("5");
    expect(await app.used(ws.workspaceId)).toBe(5);
  });

  it("reads an IPv4-mapped target as its IPv4 address, on the IPv4 lists", async () => {
    // A dual-stack socket reports an IPv4 client as ::ffff:a.b.c.d: the listed host must not pass as clean IPv6.
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    for (const target of ["::ffff:127.0.0.2", "::FFFF:7f00:2"]) {
      const res = await callProcedure(app, ws.apiKey, "blocklists.blocklistsCheck", { targets: [target] });
      expect(res.status).toBe(200);
      expect(res.body.results[0]).toMatchObject({
        target,
        kind: "ipv4",
        normalized: "127.0.0.2",
        status: "listed",
        listedOn: ["zen.spamhaus.org"],
      });
    }
    expect(await app.used(ws.workspaceId)).toBe(2);
  });

  it("refuses more than one target without bulk entitlement, consuming nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "blocklists.blocklistsCheck", {
      targets: ["127.0.0.2", "192.0.2.1"],
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("BULK_LOOKUPS_REQUIRED");
    expect(res.body.error.message).toMatch(
      /^This request needs bulk lookups \(.+\); submit one target or change the plan\.$/,
    );
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it.each([
    [{ targets: [] }, /at least one/],
    [{ targets: Array.from({ length: 21 }, (_, i) => `192.0.2.${i}`) }, /at most 20/],
    [{ targets: ["192.0.2.1", "not a target"] }, /targets\.1/],
    [{ targets: ["999.0.0.1"] }, /neither an IP address nor a domain/],
    [{ targets: "192.0.2.1" }, /targets/],
    [{}, /targets/],
  ])("refuses %j with 400 and no unit", async (input, message) => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await callProcedure(app, ws.apiKey, "blocklists.blocklistsCheck", input);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toMatch(message);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("cidr.check", () => {
  it("requires bulk entitlement even for a /32", async () => {
    const ws = await app.seedWorkspace({ plans: ["lookups_developer"] });
    const res = await callProcedure(app, ws.apiKey, "cidr.cidrCheck", { cidr: "203.0.113.1/32" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("BULK_LOOKUPS_REQUIRED");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it.each([
    ["203.0.113.1/32", 1],
    ["203.0.113.0/30", 4],
    ["203.0.113.0/29", 8],
    ["203.0.113.0/28", 7],
    ["203.0.0.0/16", 7],
  ])("%s costs %i units and checks that many addresses", async (cidr, units) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await callProcedure(app, ws.apiKey, "cidr.cidrCheck", { cidr });
    expect(res.status).toBe(200);
    expect(res.body.units).toBe(units);
    expect(res.body.addresses).toHaveLength(units);
    expect(await app.used(ws.workspaceId)).toBe(units);
  });

  it("reports listed addresses of the range", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await callProcedure(app, ws.apiKey, "cidr.cidrCheck", { cidr: "203.0.113.0/31" });
    expect(res.body.summary).toEqual({ checked: 2, listed: 1, incomplete: 0, listedAddresses: ["203.0.113.1"] });
    const listed = res.body.addresses[1].blocklists.lists.find((l: any) => l.zone === "zen.spamhaus.org");
    expect(listed.returnCodes).toEqual([{ code: "127.0.0.10", meaning: expect.stringMatching(/^PBL/) }]);
  });

  it.each(["203.0.113.0/33", "2001:db8::/64", "banana", "203.0.113/24"])(
    "refuses %j with 400 and no unit",
    async (cidr) => {
      const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
      const res = await callProcedure(app, ws.apiKey, "cidr.cidrCheck", { cidr });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(await app.used(ws.workspaceId)).toBe(0);
    },
  );
});
