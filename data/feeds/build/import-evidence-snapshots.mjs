// Copies the dated CC0 evidence snapshots (published IP ranges of 22 providers, the Tor exit list, the complete
// CISA KEV catalog) into data/feeds/ with a .meta.json sidecar each, so a fresh install answers from real data with
// no network. Run: node data/feeds/build/import-evidence-snapshots.mjs [folder of the snapshots]
// The folder defaults to ../shared/data beside the checkout; its README gives each snapshot's date and source.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const FROM = path.resolve(process.argv[2] ?? path.join(ROOT, "..", "shared", "data"));
const OUT = path.join(ROOT, "data", "feeds");
const RANGES_DATE = "2026-08-22T00:00:00Z";
const TOR_DATE = "2024-08-20T00:00:00Z";
const COLLECTION = "Published IP ranges collection, CC0 1.0 (the collection); the facts are each provider's own published list";

// feed name -> folder in ip-ranges/ (the feed names of the six cloud feeds predate this import and stay).
const RANGE_FEEDS = {
  "cloud-aws": "amazon",
  "cloud-gcp": "google",
  "cloud-azure": "microsoft",
  "cloud-oracle": "oracle",
  "cloud-digitalocean": "digitalocean",
  "cloud-linode": "linode",
  "cloud-vultr": "vultr",
  "cloud-cloudflare": "cloudflare",
  "platform-github": "github",
  "platform-facebook": "facebook",
  "platform-telegram": "telegram",
  "platform-twitter": "twitter",
  "vpn-protonvpn": "protonvpn",
  "relay-icloud-private-relay": "apple-proxy",
  "crawler-googlebot": "googlebot",
  "crawler-bing": "bing",
  "crawler-duckduckbot": "duckduckbot",
  "crawler-duckassistbot": "duckassistbot",
  "crawler-openai": "openai",
  "crawler-perplexity": "perplexity",
  "monitor-pingdom": "pingdom",
  "monitor-statuscake": "statuscake",
};

const writeMeta = (name, meta) => writeFileSync(path.join(OUT, `${name}.meta.json`), JSON.stringify(meta, null, 2) + "\n");

for (const [feed, folder] of Object.entries(RANGE_FEEDS)) {
  const lines = [];
  for (const file of ["ipv4_merged.txt", "ipv6_merged.txt"]) {
    const p = path.join(FROM, "ip-ranges", folder, file);
    if (existsSync(p)) lines.push(...readFileSync(p, "utf8").split("\n").map((l) => l.trim()).filter(Boolean));
  }
  writeFileSync(path.join(OUT, `${feed}.txt`), lines.join("\n") + "\n");
  writeMeta(feed, {
    source: `ip-ranges/${folder} of the dated evidence snapshots (merged CIDRs, IPv4 and IPv6)`,
    license: "CC0 1.0",
    attribution: COLLECTION,
    fetchedAt: RANGES_DATE,
    version: "2026-08-22",
    records: lines.length,
  });
}

const tor = readFileSync(path.join(FROM, "tor", "exit-addresses-ipv4.txt"), "utf8").split("\n").map((l) => l.trim()).filter(Boolean);
writeFileSync(path.join(OUT, "tor-exits.txt"), tor.join("\n") + "\n");
writeMeta("tor-exits", {
  source: "Tor exit relay addresses seen by the Tor Project's exit list (exit-addresses), snapshot of 2024-08-20",
  license: "CC0 1.0 (facts from the Tor Project's public exit list)",
  attribution: "The Tor Project, check.torproject.org/exit-addresses",
  fetchedAt: TOR_DATE,
  version: "2024-08-20",
  records: tor.length,
});

copyFileSync(path.join(FROM, "kev", "known_exploited_vulnerabilities.json"), path.join(OUT, "kev.json"));
const kev = JSON.parse(readFileSync(path.join(OUT, "kev.json"), "utf8"));
writeMeta("kev", {
  source: `CISA Known Exploited Vulnerabilities catalog ${kev.catalogVersion}, complete (${kev.vulnerabilities.length} records)`,
  license: "CC0 1.0 (public domain, work of the U.S. Government, 17 U.S.C. 105); CISA asks for attribution",
  attribution: "Cybersecurity and Infrastructure Security Agency (CISA), Known Exploited Vulnerabilities Catalog",
  fetchedAt: new Date(kev.dateReleased).toISOString(),
  version: kev.catalogVersion,
  records: kev.vulnerabilities.length,
});
console.log(`imported ${Object.keys(RANGE_FEEDS).length} range feeds, ${tor.length} Tor exits, ${kev.vulnerabilities.length} KEV records`);
