// Copies the anonymiser, hosting and scanner lists (X4BNet lists_vpn, MIT; MISP warninglists of scanners, CC0) into
// data/feeds/ with a .meta.json sidecar each, and X4BNet's LICENSE beside them (its notice must ship with the data).
// An IPv4 and an IPv6 list of the same meaning become one feed, IPv4 lines first, as the range snapshots do.
// Run: node data/feeds/build/import-privacy-lists.mjs [folder of the snapshots]
// The folder defaults to ../shared/data beside the checkout; its README gives each list's date and source.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const FROM = path.resolve(process.argv[2] ?? path.join(ROOT, "..", "shared", "data"), "privacy");
const OUT = path.join(ROOT, "data", "feeds");
const X4B_DATE = "2026-08-22T00:00:00Z";
const X4B_VERSION = "2026-08-22 (commit 167937a)";
const X4B_ATTRIBUTION = "X4B (Mathew Heard), X4BNet/lists_vpn, MIT License (data/feeds/LICENSE-x4bnet.txt)";
const MISP_DATE = "2026-08-20T00:00:00Z";
const MISP_VERSION = "2026-08-20 (commit 84f0610)";

const writeMeta = (name, meta) => writeFileSync(path.join(OUT, `${name}.meta.json`), JSON.stringify(meta, null, 2) + "\n");
const readLines = (file) =>
  readFileSync(path.join(FROM, "x4bnet", file), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

// feed name -> [files of X4BNet's lists joined into its snapshot, what it is]
const X4B_FEEDS = {
  "vpn-mullvad": [["provider-mullvad.txt"], "Mullvad VPN's own server list (exit addresses), as collected by X4BNet lists_vpn"],
  "vpn-pia": [["provider-pia.txt"], "Private Internet Access's own server list (exit addresses), as collected by X4BNet lists_vpn"],
  "vpn-protonvpn-x4bnet": [["provider-protonvpn.txt"], "Proton VPN's logicals API (exit addresses), as collected by X4BNet lists_vpn"],
  "vpn-x4bnet": [["vpn-ipv4.txt", "vpn-ipv6.txt"], "X4BNet lists_vpn output/vpn (ipv4.txt, ipv6.txt): ranges of VPN operators' networks (ASN-derived) and provider exit lists"],
  "datacenter-x4bnet": [["datacenter-ipv4.txt", "datacenter-ipv6.txt"], "X4BNet lists_vpn output/datacenter (ipv4.txt, ipv6.txt): ranges of hosting and datacenter networks"],
  "vpn-asns-x4bnet": [["vpn-asn.txt"], "X4BNet lists_vpn input/vpn/ASN.txt: VPN operators' ASNs, annotated with the operator"],
  "datacenter-asns-x4bnet": [["datacenter-asn.txt"], "X4BNet lists_vpn input/datacenter/ASN.txt: hosting ASNs, annotated with the operator"],
};

for (const [feed, [files, source]] of Object.entries(X4B_FEEDS)) {
  const lines = files.flatMap(readLines);
  writeFileSync(path.join(OUT, `${feed}.txt`), lines.join("\n") + "\n");
  writeMeta(feed, {
    source,
    license: "MIT (X4B); the facts are each operator's own published list",
    attribution: X4B_ATTRIBUTION,
    fetchedAt: X4B_DATE,
    version: X4B_VERSION,
    records: lines.length,
  });
}
copyFileSync(path.join(FROM, "x4bnet", "LICENSE"), path.join(OUT, "LICENSE-x4bnet.txt"));

copyFileSync(path.join(FROM, "misp-scanners", "scanners.json"), path.join(OUT, "scanners-misp.json"));
const misp = JSON.parse(readFileSync(path.join(OUT, "scanners-misp.json"), "utf8"));
writeMeta("scanners-misp", {
  source: `MISP warninglists of internet-wide scanners (${misp.lists.length} lists, lists/*scan*/list.json)`,
  license: "CC0 1.0 (the MISP warninglists collection)",
  attribution: "MISP project, misp-warninglists",
  fetchedAt: MISP_DATE,
  version: MISP_VERSION,
  records: misp.lists.reduce((n, l) => n + l.list.length, 0),
});
console.log(`imported ${Object.keys(X4B_FEEDS).length} X4BNet feeds and ${misp.lists.length} MISP scanner lists`);
