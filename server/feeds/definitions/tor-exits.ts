// Tor exit relays' addresses as published by the Tor Project. The shipped snapshot is the CC0 list of 2024-08-20
// (old, so its matches weigh less: see server/ip/privacy.ts); `feeds refresh --feed tor-exits` reads the live
// `exit-addresses` list (the bulk exit list's one-address-a-line form is read too).
import { parseIpStrict } from "../../net/ip";
import { feedSourceUrl, shippedFeedFile } from "../config";
import type { FeedDefinition } from "../types";

export const torExitsFeed: FeedDefinition<Set<string>> = {
  name: "tor-exits",
  description: "Tor exit relay addresses (Tor Project bulk exit list)",
  license: "CC0 1.0 (shipped snapshot); facts from the Tor Project's public exit list",
  attribution: "The Tor Project, check.torproject.org/exit-addresses",
  snapshotPath: shippedFeedFile("tor-exits.txt"),
  sourceUrl: () => feedSourceUrl("tor-exits", "https://check.torproject.org/exit-addresses"),
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
