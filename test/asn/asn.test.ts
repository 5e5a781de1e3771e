import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getAsnIntelOrThrow } from "../../server/asn/intel";
import { asnPrefixStats } from "../../server/asn/prefixes";
import { asnIpv4Feed, asnIpv6Feed } from "../../server/feeds/definitions/asn";
import { getFeed } from "../../server/feeds/loader";
import { getIpReputation } from "../../server/ip/reputation";
import { startRdapServer, vcardEntity, type FakeRdapServer } from "../fakes/rdap-server";

let rdap: FakeRdapServer;

// Parsing the shipped routing tables (half a million rows) and indexing them takes seconds on a busy machine.
beforeAll(async () => {
  await Promise.all([getFeed(asnIpv4Feed), getFeed(asnIpv6Feed)]);
  asnPrefixStats(13335);
}, 180_000);

beforeAll(async () => {
  rdap = await startRdapServer({
    "autnum/13335": {
      objectClassName: "autnum",
      handle: "AS13335",
      startAutnum: 13335,
      endAutnum: 13335,
      name: "CLOUDFLARENET",
      events: [{ eventAction: "registration", eventDate: "2010-07-14T00:00:00Z" }],
      entities: [
        vcardEntity({ handle: "CLOUD14-ARIN", roles: ["registrant"], fn: "Cloudflare, Inc.", country: "US" }),
        vcardEntity({
          handle: "ABUSE2916-ARIN",
          roles: ["abuse"],
          fn: "Abuse",
          email: "abuse@cloudflare.com",
          tel: "+1-650-319-8930",
        }),
      ],
    },
  });
});
afterAll(() => rdap.close());
beforeEach(() => {
  process.env.SERVICE_RDAP_BASE_URL = rdap.url;
  rdap.failWith(null);
});

describe("ASN intelligence", () => {
  it("combines announced prefixes from shipped data with the registry's RDAP record", async () => {
    const a = await getAsnIntelOrThrow(13335);
    expect(a).toMatchObject({
      asn: 13335,
      name: "CLOUDFLARENET",
      organization: "Cloudflare, Inc.",
      country: "US",
      registry: "ARIN",
      hosting: { value: true, kind: "cdn", provider: "Cloudflare" },
      rdapReason: null,
    });
    expect(a.prefixes!.ipv4.ranges).toBeGreaterThan(100);
    expect(a.prefixes!.ipv4.prefixes).toBeGreaterThanOrEqual(a.prefixes!.ipv4.ranges);
    expect(a.prefixes!.ipv4.addresses).toBeGreaterThan(1_000_000);
    expect(a.prefixes!.ipv6.ranges).toBeGreaterThan(10);
    expect(a.rdap?.abuseContact).toEqual({ name: "Abuse", email: "abuse@cloudflare.com", phone: "+1-650-319-8930" });
    expect(a.lists[0]).toMatchObject({ list: "spamhaus-asndrop", listed: null });
    expect(a.sources.map((s) => s.name)).toEqual(["asn-ipv4", "asn-ipv6", "hosting-asns", "spamhaus-asndrop"]);
  });

  it("keeps answering from shipped data when RDAP is down, with the reason", async () => {
    rdap.failWith(500);
    const a = await getAsnIntelOrThrow(15169);
    expect(a.organization).toBe("Google LLC");
    expect(a.name).toBeNull();
    expect(a.rdap).toBeNull();
    expect(a.rdapReason).toMatch(/HTTP 500/);
    expect(a.registry).toBe("ARIN");
  });

  // Found judging real answers: AS15169 said hosting { kind: "cloud", provider: "Google" }, a cloud anyone rents,
  // though it is Google's own network (Search, Gmail, Public DNS; Google Cloud's customers are AS396982), as 8.8.8.8's
  // range in goog.json is platform (test/ip/google-ranges.test.ts). An address of AS15169 outside goog.json says the same.
  it("Google's own AS is a platform's network, Google Cloud's AS a cloud", async () => {
    rdap.failWith(500);
    expect((await getAsnIntelOrThrow(15169)).hosting).toMatchObject({
      value: true,
      kind: "platform",
      provider: "Google",
    });
    expect((await getAsnIntelOrThrow(396982)).hosting).toMatchObject({
      value: true,
      kind: "cloud",
      provider: "Google Cloud",
    });
    const rep = await getIpReputation("57.140.192.1"); // AS15169, in no goog.json range
    expect(rep.asn?.number).toBe(15169);
    expect(rep.network).toMatchObject({ type: "hosting", kind: "platform", provider: "Google", cloud: null });
  });

  it("an ASN neither source knows is 404 NOT_FOUND", async () => {
    await expect(getAsnIntelOrThrow(64512)).rejects.toMatchObject({ appCode: "NOT_FOUND" });
    await expect(getAsnIntelOrThrow(1000)).rejects.toMatchObject({ appCode: "NOT_FOUND" });
  });

  it("an ASN missing from shipped data while its registry is down is 503", async () => {
    rdap.failWith(502);
    await expect(getAsnIntelOrThrow(1000)).rejects.toMatchObject({ appCode: "UPSTREAM_UNAVAILABLE", status: 503 });
  });
});
