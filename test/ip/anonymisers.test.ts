// VPN exits, VPN networks, hosting networks and internet scanners from the shipped X4BNet and MISP lists (issue 43):
// addresses drawn from the lists themselves, each with the class, provider, basis, confidence, list and date it must
// get, IPv4 and IPv6; consumer ISP addresses that must stay unflagged; the same answer on GET /v1/ip/{ip}; and a
// refresh of each new kind of feed from a local fake server replacing its snapshot.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sourceArea } from "../../app/dashboard/sources/source-text";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { getDb } from "../../server/db/client";
import { parseRangeDocument, parseRangeDocumentAsync } from "../../server/feeds/definitions/ranges";
import { readFileSync } from "node:fs";
import { listFeeds } from "../../server/feeds/registry";
import { resetFeedCache } from "../../server/feeds/loader";
import { refreshFeeds } from "../../server/feeds/refresh";
import { vpnAsnsFeed } from "../../server/feeds/definitions/privacy-lists";
import { classifyPrivacy } from "../../server/ip/privacy";
import { getIpReputation, warmIpFeeds } from "../../server/ip/reputation";
import { startFeedServer, type FakeFeedServer } from "../fakes/feed-server";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
let feeds: FakeFeedServer;

beforeAll(async () => {
  // The weights depend on the shipped lists' age (AGE_SCHEDULES): pinned to 2026-11-30, 100 days after the 2026-08-22
  // snapshots (only Date is faked, and it still advances).
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: new Date("2026-11-30T06:00:00Z") });
  app = await createTestApp();
  feeds = await startFeedServer();
  await (await getDb()).feedSnapshot.deleteMany({});
  resetFeedCache();
  await warmIpFeeds(); // the routing tables and the evidence index: seconds, outside the tests' timeouts
}, 180_000);
afterAll(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await feeds.close();
  await (await getDb()).feedSnapshot.deleteMany({});
  resetFeedCache();
});

type Row = {
  ip: string;
  cls: "vpn" | "hosting" | "scanner";
  provider: string;
  basis: string;
  confidence: "high" | "medium";
  feed: string;
  date: string;
  network: [type: string, kind: string];
};
// Drawn from the shipped lists: provider exits (data/feeds/vpn-mullvad.txt, vpn-pia.txt, vpn-protonvpn-x4bnet.txt),
// M247's networks (AS9009 on vpn-asns-x4bnet.txt, ranges in vpn-x4bnet.txt), QuadraNet (AS8100 on
// datacenter-asns-x4bnet.txt), the MISP scanner lists (scanners-misp.json).
const TABLE: Row[] = [
  {
    ip: "23.144.160.67",
    cls: "vpn",
    provider: "Mullvad VPN",
    basis: "provider_exit_list",
    confidence: "high",
    feed: "vpn-mullvad",
    date: "2026-08-22",
    network: ["anonymizer", "vpn"],
  },
  {
    ip: "37.19.197.131",
    cls: "vpn",
    provider: "Private Internet Access",
    basis: "provider_exit_list",
    confidence: "high",
    feed: "vpn-pia",
    date: "2026-08-22",
    network: ["anonymizer", "vpn"],
  },
  {
    ip: "2.58.241.67",
    cls: "vpn",
    provider: "Proton VPN",
    basis: "provider_exit_list",
    confidence: "high",
    feed: "vpn-protonvpn-x4bnet",
    date: "2026-08-22",
    network: ["anonymizer", "vpn"],
  },
  {
    ip: "2.56.16.5",
    cls: "vpn",
    provider: "M247 (NordVPN)",
    basis: "vpn_network",
    confidence: "medium",
    feed: "vpn-x4bnet",
    date: "2026-08-22",
    network: ["anonymizer", "vpn"],
  },
  {
    ip: "2001:550:1d05::5",
    cls: "vpn",
    provider: "M247 (NordVPN)",
    basis: "vpn_network",
    confidence: "medium",
    feed: "vpn-x4bnet",
    date: "2026-08-22",
    network: ["anonymizer", "vpn"],
  },
  {
    ip: "104.234.109.5",
    cls: "hosting",
    provider: "QuadraNet Enterprises LLC",
    basis: "hosting_asn",
    confidence: "medium",
    feed: "datacenter-asns-x4bnet",
    date: "2026-08-22",
    network: ["hosting", "hosting"],
  },
  {
    ip: "2602:fed2:708d::5",
    cls: "hosting",
    provider: "QuadraNet Enterprises LLC",
    basis: "hosting_asn",
    confidence: "medium",
    feed: "datacenter-asns-x4bnet",
    date: "2026-08-22",
    network: ["hosting", "hosting"],
  },
  {
    ip: "66.240.205.34",
    cls: "hosting",
    provider: "CariNet, Inc.",
    basis: "datacenter_range",
    confidence: "medium",
    feed: "datacenter-x4bnet",
    date: "2026-08-22",
    network: ["service", "scanner"],
  },
  {
    ip: "2602:ff03:aac::5",
    cls: "hosting",
    provider: "The Constant Company, LLC",
    basis: "datacenter_range",
    confidence: "medium",
    feed: "datacenter-x4bnet",
    date: "2026-08-22",
    network: ["hosting", "hosting"],
  },
  {
    ip: "162.142.125.1",
    cls: "scanner",
    provider: "Censys",
    basis: "scanner_list",
    confidence: "high",
    feed: "scanners-misp",
    date: "2026-08-20",
    network: ["service", "scanner"],
  },
  {
    ip: "66.240.205.34",
    cls: "scanner",
    provider: "Shodan",
    basis: "scanner_list",
    confidence: "high",
    feed: "scanners-misp",
    date: "2026-08-20",
    network: ["service", "scanner"],
  },
  {
    ip: "2001:41d0:33a:a00::401",
    cls: "scanner",
    provider: "Onyphe",
    basis: "scanner_list",
    confidence: "high",
    feed: "scanners-misp",
    date: "2026-08-20",
    network: ["service", "scanner"],
  },
  {
    ip: "2a00:5980:93::130",
    cls: "scanner",
    provider: "CIRCL",
    basis: "scanner_list",
    confidence: "high",
    feed: "scanners-misp",
    date: "2026-08-20",
    network: ["service", "scanner"],
  },
];

describe("anonymiser classes from the shipped X4BNet and MISP lists", () => {
  it.each(TABLE)("$ip: $cls by $provider ($basis, $confidence)", async (row) => {
    const rep = await getIpReputation(row.ip);
    const c = rep.privacy.classes[row.cls];
    expect(c).toMatchObject({
      flag: true,
      provider: row.provider,
      basis: row.basis,
      confidence: row.confidence,
      feed: row.feed,
      snapshotDate: row.date,
    });
    expect(c.list).toEqual(expect.any(String));
    expect(c.detail).toContain(row.date);
    expect(c.detail).toContain(`${row.confidence} confidence`);
    expect(rep.privacy[row.cls]).toBe(true);
    expect([rep.network.type, rep.network.kind]).toEqual(row.network);
    expect(rep.sources.map((s) => s.name)).toContain(row.feed);
  });

  it("a provider's exit outranks the VPN network it sits in: high confidence, the provider named, the network reported too", async () => {
    const rep = await getIpReputation("37.19.197.131"); // PIA, in Datacamp's AS212238
    expect(rep.privacy).toMatchObject({
      vpn: true,
      hosting: true,
      confidence: "high",
      service: "Private Internet Access",
    });
    expect(rep.network).toMatchObject({
      type: "anonymizer",
      kind: "vpn",
      provider: "Private Internet Access",
      confidence: "high",
    });
    expect(rep.privacy.matches.map((m) => [m.feed, m.basis, m.confidence])).toEqual([
      ["vpn-pia", "provider_exit_list", "high"],
      ["vpn-x4bnet", "vpn_network", "low"], // the VPN ASN list annotates AS212238 "Datacamp VPN?"
      ["datacenter-x4bnet", "datacenter_range", "medium"],
      // The exit list says who uses the address, not whose network it is: Datacamp's AS still names the network.
      ["hosting-asns", "hosting_asn", "high"],
    ]);
    expect(rep.anonymizers.vpn).toEqual({ value: true, reason: rep.privacy.classes.vpn.detail });
    expect(rep.risk.reasons.map((r) => r.code)).toContain("vpn_exit");
  });

  it("a hosting network that carries VPN exits says VPN-capable; a VPN network is medium and scores less than an exit", async () => {
    const m247 = await getIpReputation("2.56.16.5");
    expect(m247.privacy).toMatchObject({ vpn: true, hosting: true, confidence: "medium" });
    expect(m247.network).toMatchObject({ type: "anonymizer", kind: "vpn", confidence: "medium" });
    expect(m247.privacy.classes.hosting.detail).toMatch(
      /VPN-capable hosting \(AS9009 is on the VPN ASN list: M247 \(NordVPN\)\)/,
    );
    const network = m247.risk.reasons.find((r) => r.code === "vpn_network")!;
    expect(network.reason).toMatch(/M247 \(NordVPN\).*medium confidence/);
    const hosting = m247.risk.reasons.find((r) => r.code === "hosting")!.reason;
    expect(hosting).toMatch(/VPN-capable hosting/);
    // Said as a sentence: "origin AS9009 belongs to M247 (…)", not "is M247 (NordVPN)'s".
    expect(hosting).toMatch(/origin AS\d+ belongs to [^;]+ \(/);
    expect(hosting).not.toMatch(/\)'s/);
    const exit = (await getIpReputation("23.144.160.67")).risk.reasons.find((r) => r.code === "vpn_exit")!;
    // Both lists are dated 2026-08-22, within a VPN list's 180 days: 30 and 15 in full.
    expect([exit.points, network.points]).toEqual([30, 15]);
  });

  it('an ASN the VPN list annotates with a doubt ("AS212238 # Datacamp VPN?") is a VPN at low confidence, named without the "?"', async () => {
    const parsed = vpnAsnsFeed.parse(Buffer.from("AS212238 # Datacamp VPN?\nAS9009 # M247, GB (NordVPN)\n"));
    expect(parsed.data.get(212238)).toEqual({ asn: 212238, operator: "Datacamp VPN", doubtful: true });
    expect(parsed.data.get(9009)).toEqual({ asn: 9009, operator: "M247 (NordVPN)", doubtful: false });
    for (const ip of ["205.188.252.1", "37.19.200.1"]) {
      const rep = await getIpReputation(ip); // AS212238, Datacamp Limited; in X4BNet's VPN ranges, not a listed exit
      // The list doubts that Datacamp runs a VPN: its AS's own name says whose network it is, at low confidence.
      expect(rep.privacy.classes.vpn).toMatchObject({
        flag: true,
        provider: "Datacamp Limited",
        confidence: "low",
        basis: "vpn_network",
      });
      expect(rep.privacy.classes.vpn.detail).toMatch(/low confidence/);
      expect(rep.privacy.classes.vpn.detail).toMatch(/the VPN ASN list is unsure AS212238 carries VPN exits/);
      expect(rep.network).toMatchObject({
        type: "anonymizer",
        kind: "vpn",
        provider: "Datacamp Limited",
        confidence: "low",
      });
      expect(rep.privacy.service).toBe("Datacamp Limited");
      expect(JSON.stringify(rep)).not.toContain("VPN?");
      expect(rep.risk.reasons.find((r) => r.code === "vpn_network")!.reason).toMatch(
        /Datacamp Limited.*low confidence/,
      );
    }
    // A PIA exit in the same AS is still high (the provider's own list); the network it sits in is named the same way.
    const pia = await getIpReputation("37.19.197.131");
    expect(pia.privacy.classes.vpn).toMatchObject({ provider: "Private Internet Access", confidence: "high" });
    expect(pia.privacy.matches.find((m) => m.feed === "vpn-x4bnet")).toMatchObject({
      provider: "Datacamp Limited",
      confidence: "low",
    });
    expect(JSON.stringify(pia)).not.toContain("VPN?");
    // /assess says the same in its signal.
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const a = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: "205.188.252.1" },
    });
    expect(a.status).toBe(200);
    const signal = (a.body as { signals: { code: string; reason: string }[] }).signals.find(
      (x) => x.code === "ip_vpn_network",
    )!;
    expect(signal.reason).toMatch(/\(Datacamp Limited;.*low confidence: the VPN ASN list itself is unsure/);
    expect(JSON.stringify(a.body)).not.toContain("VPN?");
    // An annotation without a doubt keeps its name and medium confidence.
    const m247 = await getIpReputation("2.56.16.5");
    expect(m247.privacy.classes.vpn).toMatchObject({ provider: "M247 (NordVPN)", confidence: "medium" });
  });

  it("a well-known hosting company on neither X4BNet list is hosting by the curated ASN list (G-Core Labs, Aeza)", async () => {
    for (const [ip, provider] of [
      ["93.123.38.159", "G-Core Labs"],
      ["2a03:90c0:60::a8:7dc5:150", "G-Core Labs"],
    ]) {
      const rep = await getIpReputation(ip!);
      expect(rep.network).toMatchObject({ type: "hosting", kind: "hosting", provider, confidence: "high" });
      expect(rep.privacy.classes.hosting).toMatchObject({ provider, basis: "hosting_asn", feed: "hosting-asns" });
    }
  });

  // Hosting companies on neither X4BNet list nor the curated one until 2026-11-29, found where published VPN exits
  // (Mullvad, PIA, Proton) had no hosting evidence at all: one address each, drawn from the shipped ASN data.
  it.each([
    ["5.253.16.10", 9312, "xTom"],
    ["23.142.224.10", 6233, "xTom"],
    ["2.27.242.10", 30058, "FDCservers"],
    ["31.57.144.10", 215224, "NovoServe"],
    ["45.152.192.10", 939, "NovoServe"],
    ["64.113.24.10", 4213, "Krypt"],
    ["154.16.81.10", 18345, "Servers Australia"],
    ["37.0.12.10", 206804, "EstNOC"],
    ["31.169.48.10", 50304, "Blix Solutions"],
    ["5.181.156.10", 39798, "MivoCloud"],
    ["2.58.175.10", 3170, "VeloxServ"],
    ["2.57.169.10", 41564, "Orion Network"],
  ] as const)("%s (AS%i) is a hosting address of %s", async (ip, asn, provider) => {
    const rep = await getIpReputation(ip);
    expect(rep.asn?.number).toBe(asn);
    expect(rep.network).toMatchObject({ type: "hosting", kind: "hosting", provider });
    expect(rep.privacy.classes.hosting).toMatchObject({
      flag: true,
      provider,
      basis: "hosting_asn",
      feed: "hosting-asns",
    });
  });

  it("a scanner is named by its organisation and scored as automated traffic", async () => {
    const rep = await getIpReputation("162.142.125.1");
    expect(rep.network).toMatchObject({ type: "service", kind: "scanner", provider: "Censys", confidence: "high" });
    expect(rep.privacy).toMatchObject({ scanner: true, service: "Censys", confidence: "high" });
    expect(rep.risk.reasons.find((r) => r.code === "scanner")!.reason).toMatch(
      /internet-wide scanner run by Censys \(162\.142\.125\.0\/24, MISP warninglist censys-scanning\)/,
    );
  });

  // Comcast, Deutsche Telekom (IPv4 and IPv6), Vodafone Germany, BT.
  it.each(["73.162.1.1", "2.58.100.5", "2001:558::1", "2a02:8108::1", "5.80.0.1"])(
    "consumer ISP address %s is flagged as nothing",
    async (ip) => {
      const rep = await getIpReputation(ip);
      expect(rep.privacy.matches).toEqual([]);
      expect(rep.privacy.confidence).toBeNull();
      for (const c of ["tor", "vpn", "relay", "hosting", "scanner"] as const)
        expect(rep.privacy.classes[c].flag, c).toBe(false);
      // Residential or unknown (an organisation-name heuristic), never hosting, a service or an anonymiser.
      expect(["residential", "unknown"]).toContain(rep.network.type);
    },
  );

  it("GET /v1/ip/{ip} answers the classes with provider, basis, confidence, list and date", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const r = await app.request("GET", "/v1/ip/2001:550:1d05::5", { key: ws.apiKey });
    expect(r.status).toBe(200);
    expect(r.body.privacy.classes.vpn).toEqual({
      flag: true,
      provider: "M247 (NordVPN)",
      confidence: "medium",
      basis: "vpn_network",
      detail: expect.stringContaining("X4BNet lists_vpn VPN ranges (2001:550:1d05::/48, 2026-08-22)"),
      list: "X4BNet lists_vpn VPN ranges",
      feed: "vpn-x4bnet",
      range: "2001:550:1d05::/48",
      snapshotDate: "2026-08-22",
    });
    expect(r.body.privacy.classes.scanner.flag).toBe(false);
    expect(r.body.privacy.confidence).toBe("medium");
    const s = await app.request("GET", "/v1/ip/2a00:5980:93::130/reputation", { key: ws.apiKey });
    expect(s.body.privacy).toMatchObject({
      scanner: true,
      classes: { scanner: { provider: "CIRCL", confidence: "high" } },
    });
    expect(s.body.network).toMatchObject({ type: "service", kind: "scanner", provider: "CIRCL" });
  });
});

describe("the dashboard's door", () => {
  it("the IP page's tRPC query answers the same classes as /v1, for IPv4 and IPv6, one unit a lookup", async () => {
    const user = await ensureUser(app.db, { email: "privacy-dashboard@example.test" });
    const ws = await createWorkspace(app.db, {
      name: "privacy",
      plans: ["suite_starter"],
      ownerEmail: user.email,
      ownerUserId: user.id,
    });
    // Queries travel as GET with the input in the query string, as the dashboard's tRPC client sends them.
    const dashboard = async (ip: string) => {
      const res = await handleDashboardRequest(
        new Request(`http://127.0.0.1:3000/api/trpc/ip.ipLookup?input=${encodeURIComponent(JSON.stringify({ ip }))}`, {
          headers: { "sec-fetch-site": "same-origin", "x-service-workspace": ws.workspaceId },
        }),
        async () => ({ userId: user.id, email: user.email, name: null }),
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as any).result.data;
    };
    for (const ip of ["23.144.160.67", "2001:550:1d05::5", "2a00:5980:93::130", "2602:ff03:aac::5", "2a02:8108::1"]) {
      const before = await app.used(ws.workspaceId);
      const d = await dashboard(ip);
      expect(await app.used(ws.workspaceId)).toBe(before + 1);
      const v1 = await app.request("GET", `/v1/ip/${ip}`, { key: ws.apiKey });
      expect(v1.status).toBe(200);
      expect(d.privacy.classes).toEqual(v1.body.privacy.classes);
      expect([d.privacy.confidence, d.network]).toEqual([v1.body.privacy.confidence, v1.body.network]);
    }
    expect((await dashboard("23.144.160.67")).privacy.classes.vpn).toMatchObject({
      provider: "Mullvad VPN",
      confidence: "high",
      basis: "provider_exit_list",
      snapshotDate: "2026-08-22",
    });
    const home = await dashboard("2a02:8108::1");
    expect(Object.values(home.privacy.classes).map((c: any) => c.flag)).toEqual([false, false, false, false, false]);
  });
});

describe("refreshing the new feeds from their configured sources", () => {
  const today = () => new Date().toISOString().slice(0, 10);

  it("a provider exit list refreshed from a local server replaces the shipped snapshot", async () => {
    const db = await getDb();
    feeds.set("/mullvad", { body: "45.83.220.9/32\n" });
    process.env.SERVICE_FEED_VPN_MULLVAD_URL = `${feeds.url}/mullvad`;
    try {
      expect(classifyPrivacy("45.83.220.9", null).vpn).toBe(false);
      const [res] = await refreshFeeds(db, { feed: "vpn-mullvad" });
      expect(res).toMatchObject({ ok: true, count: 1, sourceUrl: `${feeds.url}/mullvad` });
      expect(classifyPrivacy("45.83.220.9", null).classes.vpn).toMatchObject({
        provider: "Mullvad VPN",
        confidence: "high",
        basis: "provider_exit_list",
        snapshotDate: today(),
      });
      // Replaced, not merged: the shipped exit is now only in X4BNet's VPN ranges (medium).
      expect(classifyPrivacy("23.144.160.67", null).classes.vpn).toMatchObject({
        feed: "vpn-x4bnet",
        confidence: "medium",
      });
    } finally {
      delete process.env.SERVICE_FEED_VPN_MULLVAD_URL;
    }
  });

  it("a provider's IPv6 exits come with a refresh: none of the shipped provider lists has one", async () => {
    const db = await getDb();
    // Mullvad's own space (2a03:1b20::/32); the shipped X4BNet provider lists hold IPv4 exits only. A server of its
    // own, closed at the end: a kept-alive connection to the shared one, idle past its keep-alive time on a loaded
    // machine, failed the next test's fetch.
    const own = await startFeedServer({ "/mullvad6": { body: "45.83.220.9/32\n2a03:1b20:6:f011::a01f/128\n" } });
    process.env.SERVICE_FEED_VPN_MULLVAD_URL = `${own.url}/mullvad6`;
    try {
      expect(classifyPrivacy("2a03:1b20:6:f011::a01f", null).classes.vpn.confidence).not.toBe("high");
      const [res] = await refreshFeeds(db, { feed: "vpn-mullvad" });
      expect(res).toMatchObject({ ok: true, count: 2 });
      const rep = await getIpReputation("2a03:1b20:6:f011::a01f");
      expect(rep.privacy.classes.vpn).toMatchObject({
        flag: true,
        provider: "Mullvad VPN",
        basis: "provider_exit_list",
        confidence: "high",
        feed: "vpn-mullvad",
        range: "2a03:1b20:6:f011::a01f/128",
        snapshotDate: today(),
      });
      expect([rep.network.type, rep.network.kind]).toEqual(["anonymizer", "vpn"]);
      // The next address of the same /64 is no published exit.
      expect(classifyPrivacy("2a03:1b20:6:f011::a020", null).classes.vpn.basis).not.toBe("provider_exit_list");
    } finally {
      delete process.env.SERVICE_FEED_VPN_MULLVAD_URL;
      await own.close();
    }
  });

  it("the scanner lists refresh from MISP list.json documents, each naming its organisation", async () => {
    const db = await getDb();
    const list = (name: string, ips: string[]) => JSON.stringify({ name, description: "test", version: 7, list: ips });
    feeds.set("/censys", { contentType: "application/json", body: list("censys-scanning", ["45.83.220.10"]) });
    feeds.set("/stretchoid", {
      contentType: "application/json",
      body: list("stretchoid-nt-scanning", ["2a0a:1::/48"]),
    });
    process.env.SERVICE_FEED_SCANNERS_MISP_URL = `${feeds.url}/censys ${feeds.url}/stretchoid`;
    try {
      const [res] = await refreshFeeds(db, { feed: "scanners-misp" });
      expect(res).toMatchObject({ ok: true, count: 2 });
      expect(classifyPrivacy("45.83.220.10", null).classes.scanner).toMatchObject({
        provider: "Censys",
        list: "MISP warninglist censys-scanning",
        snapshotDate: today(),
      });
      expect(classifyPrivacy("2a0a:1::7", null).classes.scanner.provider).toBe("Stretchoid");
      expect(classifyPrivacy("162.142.125.1", null).scanner).toBe(false);
    } finally {
      delete process.env.SERVICE_FEED_SCANNERS_MISP_URL;
    }
  });

  it("a refreshed VPN ASN list makes a hosting ASN's addresses VPN (medium, by ASN) and its hosting VPN-capable", async () => {
    const db = await getDb();
    feeds.set("/vpn-asns", { body: "AS8100 # ASN-QUADRANET-GLOBAL - QuadraNet, Inc, US (Test VPN)\n" });
    process.env.SERVICE_FEED_VPN_ASNS_X4BNET_URL = `${feeds.url}/vpn-asns`;
    try {
      const [res] = await refreshFeeds(db, { feed: "vpn-asns-x4bnet" });
      expect(res).toMatchObject({ ok: true, count: 1 });
      const rep = await getIpReputation("104.234.109.5");
      expect(rep.privacy.classes.vpn).toMatchObject({
        flag: true,
        provider: "QuadraNet, Inc (Test VPN)",
        basis: "vpn_asn",
        confidence: "medium",
        range: "AS8100",
        snapshotDate: today(),
      });
      expect(rep.privacy.classes.hosting.detail).toMatch(/VPN-capable hosting/);
      // M247 is no longer on the list: its addresses stay VPN by X4BNet's ranges, but their hosting is not VPN-capable.
      expect((await getIpReputation("2.56.16.5")).privacy.classes.hosting.detail).not.toMatch(/VPN-capable/);
    } finally {
      delete process.env.SERVICE_FEED_VPN_ASNS_X4BNET_URL;
    }
  });

  it("a malformed source keeps the previous data", async () => {
    const db = await getDb();
    feeds.set("/bad", { body: "not a cidr\nnor this\n" });
    process.env.SERVICE_FEED_DATACENTER_X4BNET_URL = `${feeds.url}/bad`;
    process.env.SERVICE_FEED_DATACENTER_ASNS_X4BNET_URL = `${feeds.url}/bad`;
    try {
      const results = await refreshFeeds(db, { feed: "datacenter-x4bnet" });
      results.push(...(await refreshFeeds(db, { feed: "datacenter-asns-x4bnet" })));
      expect(results.map((r) => [r.ok, r.count])).toEqual([
        [false, 51318],
        [false, 892],
      ]);
      expect((await getIpReputation("104.234.109.5")).privacy.classes.hosting.provider).toBe(
        "QuadraNet Enterprises LLC",
      );
    } finally {
      delete process.env.SERVICE_FEED_DATACENTER_X4BNET_URL;
      delete process.env.SERVICE_FEED_DATACENTER_ASNS_X4BNET_URL;
    }
  });
});

describe("the new feeds among the others", () => {
  it("every new feed is registered and shows under IP reputation and privacy on the sources page", () => {
    const names = listFeeds().map((f) => f.name);
    for (const name of [
      "vpn-mullvad",
      "vpn-pia",
      "vpn-protonvpn-x4bnet",
      "vpn-x4bnet",
      "datacenter-x4bnet",
      "vpn-asns-x4bnet",
      "datacenter-asns-x4bnet",
      "scanners-misp",
    ]) {
      expect(names, name).toContain(name);
      expect(sourceArea(name), name).toBe("ip");
    }
  });

  it("the large datacenter list is parsed in slices that give the event loop turns, to the same result", async () => {
    const raw = readFileSync(listFeeds().find((f) => f.name === "datacenter-x4bnet")!.snapshotPath);
    let turns = 0;
    let counting = true;
    const spin = () => {
      if (!counting) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const sliced = await parseRangeDocumentAsync("datacenter-x4bnet", raw);
    counting = false;
    expect(turns).toBeGreaterThan(5);
    const whole = parseRangeDocument("datacenter-x4bnet", raw);
    expect(sliced.count).toBe(51_318);
    expect(sliced.data.entries.map((e) => e.cidr)).toEqual(whole.data.entries.map((e) => e.cidr));
  });
});
