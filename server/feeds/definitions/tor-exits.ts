// Tor exit relays' addresses as published by the Tor Project (TorDNSEL bulk exit list). No npm package ships this
// list, so the shipped snapshot is empty and `feeds refresh --feed tor-exits` fills it from the live source.
import { parseIpStrict } from "../../net/ip";
import { feedSourceUrl, shippedFeedFile } from "../config";
import type { FeedDefinition } from "../types";

export const torExitsFeed: FeedDefinition<Set<string>> = {
  name: "tor-exits",
  description: "Tor exit relay addresses (Tor Project bulk exit list)",
  license: "Public data published by The Tor Project (no restrictions stated)",
  attribution: "The Tor Project, check.torproject.org",
  snapshotPath: shippedFeedFile("tor-exits.txt"),
  sourceUrl: () => feedSourceUrl("tor-exits", "https://check.torproject.org/torbulkexitlist"),
  parse(raw) {
    const data = new Set<string>();
    const lines = raw.toString("utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!.trim();
      if (!line || line.startsWith("#")) continue;
      // Also accepts the "exit-addresses" format, where the address follows the keyword ExitAddress.
      if (line.startsWith("ExitAddress ")) line = line.split(/\s+/)[1] ?? "";
      else if (/^(ExitNode|Published|LastStatus) /.test(line)) continue;
      const ip = parseIpStrict(line);
      if (!ip) throw new Error(`not an IP address at line ${i + 1}: ${JSON.stringify(line.slice(0, 80))}`);
      data.add(ip.address);
    }
    return { data, count: data.size };
  },
};
