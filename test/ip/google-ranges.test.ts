// The shipped `cloud-gcp` snapshot is Google's goog.json (every range Google holds: Search, Gmail, Public DNS and
// Google Cloud's customers alike), not Google Cloud's cloud.json, which the refresh reads. It was labelled "Google
// Cloud" / "Google Cloud cloud.json", so 8.8.8.8 (Public DNS) and Gmail's outbound mail servers read "belongs to
// Google Cloud (cloud network ...)": a customer cloud. The shipped list now names Google as the network owner and
// says it cannot tell Google's own services from Google Cloud; a refresh from cloud.json (a real HTTP server on
// 127.0.0.1 here) names Google Cloud again. Real Google addresses; /ip and /assess both checked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetFeedCache } from "../../server/feeds/loader";
import { refreshFeeds } from "../../server/feeds/refresh";
import { getIpReputation, warmIpFeeds } from "../../server/ip/reputation";
import { startFeedServer, type FakeFeedServer } from "../fakes/feed-server";
import { createTestApp, type TestApp } from "../harness";

const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const PUBLIC_DNS = ["8.8.8.8", "8.8.4.4", "2001:4860:4860::8888"];
const GMAIL_OUTBOUND = "209.85.220.41"; // mail-sor-f41.google.com
const GCE = "34.118.0.5"; // a Google Cloud customer range, in both goog.json and cloud.json

let app: TestApp;
let feeds: FakeFeedServer;
beforeAll(async () => {
  app = await createTestApp();
  await app.db.feedSnapshot.deleteMany({});
  resetFeedCache();
  const cloudJson = {
    syncToken: "1764460800000",
    creationTime: "2026-11-30T00:00:00.000000",
    prefixes: [{ ipv4Prefix: "34.118.0.0/16", service: "Google Cloud", scope: "us-central1" }],
  };
  feeds = await startFeedServer({
    "/cloud.json": { body: JSON.stringify(cloudJson), contentType: "application/json" },
  });
  await warmIpFeeds();
}, 180_000);
afterAll(async () => {
  await feeds.close();
  delete process.env.SERVICE_FEED_CLOUD_GCP_URL;
  await app.db.feedSnapshot.deleteMany({});
  resetFeedCache();
});

interface Assessed {
  signals: { code: string; weight: number; reason: string }[];
  ip: { privacy: { classes: { hosting: { provider: string | null; list: string | null } } } };
}
async function assess(key: string, ip: string): Promise<Assessed> {
  const res = await app.request("POST", "/v1/assess", { key, body: { event: "login", ip, user_agent: CHROME_UA } });
  expect(res.status).toBe(200);
  return res.body as Assessed;
}

describe("Google's ranges from the shipped goog.json", () => {
  it("name Google as the network owner, never Google Cloud, for Public DNS and Gmail's servers", async () => {
    const { apiKey } = await app.seedWorkspace({ plans: ["suite_business"] });
    for (const ip of [...PUBLIC_DNS, GMAIL_OUTBOUND]) {
      const r = await assess(apiKey, ip);
      const hosting = r.signals.find((s) => s.code === "ip_hosting")!;
      expect(hosting.reason, ip).not.toMatch(/Google Cloud(?! alike)/);
      expect(hosting.reason, ip).not.toMatch(/cloud network/);
      expect(hosting.reason, ip).toMatch(/belongs to Google \(/);
      expect(hosting.reason, ip).toMatch(/Google's own services .* and Google Cloud alike/);
      expect(r.ip.privacy.classes.hosting.provider, ip).not.toBe("Google Cloud");

      const rep = await getIpReputation(ip);
      expect(rep.network.provider, ip).toBe("Google");
      const google = rep.privacy.matches.find((m) => m.feed === "cloud-gcp")!;
      expect(google).toMatchObject({ provider: "Google", kind: "platform" });
      expect(google.list).toMatch(/goog\.json/);
      for (const why of rep.risk.reasons) expect(why.reason, ip).not.toMatch(/Google Cloud(?! alike)/);
    }
  });

  // Found looking up real addresses on the production server: 8.8.8.8 answered network { kind: "cloud", cloud:
  // { provider: "Google" } } (and so did GitHub's and Meta's own ranges), a rentable cloud, while its match says
  // "platform" and the answer's source said "Google Cloud cloud.json". A platform's own range is its own services'
  // egress: network.kind "platform", no cloud block; a cloud range under it (GitHub Actions in Azure) stays cloud.
  it("a platform's own published range is network.kind platform, not a cloud, and the source names goog.json", async () => {
    for (const [ip, provider] of [
      ...[...PUBLIC_DNS, GMAIL_OUTBOUND].map((a) => [a, "Google"]),
      ["140.82.112.3", "GitHub"], // github.com
      ["157.240.1.35", "Meta (Facebook)"], // facebook.com
    ] as const) {
      const rep = await getIpReputation(ip);
      expect(rep.network, ip).toMatchObject({ type: "hosting", kind: "platform", provider, cloud: null });
    }
    const dns = await getIpReputation("8.8.8.8");
    const source = dns.sources.find((s) => s.name === "cloud-gcp")!;
    expect(source.description).toMatch(/goog\.json/);
    expect(source.description).not.toMatch(/cloud\.json/);
    expect(source.attribution).not.toMatch(/cloud\.json/);
    // A GitHub Actions address inside Azure's published ranges is still Azure's cloud.
    const actions = await getIpReputation("157.55.7.137");
    expect(actions.network).toMatchObject({ kind: "cloud", provider: "Microsoft Azure" });
    expect(actions.network.cloud).toMatchObject({ provider: "Microsoft Azure" });
  });

  // The review of that change: goog.json also holds Google Cloud's customer ranges (34.64.0.0/10, 35.192.0.0/14, ...),
  // which then read "platform" with no cloud block, so a Compute Engine machine was no cloud at all. Google Cloud's
  // ranges are announced by its own AS (AS396982, a cloud in the curated hosting ASNs), Google's services by AS15169:
  // the announcing AS tells the two apart until a refresh reads cloud.json.
  it("a Google Cloud customer address in the shipped goog.json is a cloud, told apart by the AS announcing it", async () => {
    const { apiKey } = await app.seedWorkspace({ plans: ["suite_business"] });
    for (const ip of [GCE, "35.192.0.10", "104.154.0.1", "130.211.0.1"]) {
      const rep = await getIpReputation(ip);
      expect(rep.asn?.number, ip).toBe(396982);
      expect(rep.network, ip).toMatchObject({ type: "hosting", kind: "cloud", provider: "Google Cloud" });
      expect(rep.network.cloud, ip).toMatchObject({ provider: "Google Cloud" });
      const hosting = (await assess(apiKey, ip)).signals.find((s) => s.code === "ip_hosting")!;
      expect(hosting.reason, ip).toMatch(/belongs to Google Cloud \(cloud network/);
    }
    // Public DNS, announced by AS15169, stays Google's platform.
    expect((await getIpReputation("8.8.8.8")).network).toMatchObject({ kind: "platform", cloud: null });
  });

  it("a refresh from Google Cloud's own cloud.json names Google Cloud for its customers' ranges", async () => {
    process.env.SERVICE_FEED_CLOUD_GCP_URL = `${feeds.url}/cloud.json`;
    const [refreshed] = await refreshFeeds(app.db, { feed: "cloud-gcp" });
    expect(refreshed).toMatchObject({ ok: true, count: 1 });
    const gce = await getIpReputation(GCE);
    expect(gce.privacy.matches.find((m) => m.feed === "cloud-gcp")).toMatchObject({
      kind: "cloud",
      provider: "Google Cloud",
      list: "Google Cloud cloud.json",
    });
    expect(gce.network).toMatchObject({ kind: "cloud", provider: "Google Cloud" });
    // Public DNS is in no Google Cloud range: no longer a Google Cloud match at all.
    const dns = await getIpReputation("8.8.8.8");
    expect(dns.privacy.matches.find((m) => m.feed === "cloud-gcp")).toBeUndefined();
  });
});
