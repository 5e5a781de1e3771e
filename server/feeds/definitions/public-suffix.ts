// The Public Suffix List: which names are suffixes under which anyone can register (com, co.uk, github.io), so a
// host's registrable domain can be found. Shipped from the rules in the npm package psl.
import { domainToASCII } from "node:url";
import { feedSourceUrl, shippedFeedFile } from "../config";
import type { FeedDefinition } from "../types";

export interface PublicSuffixRules {
  rules: Set<string>;
  /** "*.ck" is kept as "ck": every label under it is a public suffix. */
  wildcards: Set<string>;
  /** "!www.ck" is kept as "www.ck": an exception to a wildcard. */
  exceptions: Set<string>;
}

export const publicSuffixFeed: FeedDefinition<PublicSuffixRules> = {
  name: "public-suffix-list",
  description: "Public Suffix List (ICANN and private suffixes)",
  license: "MPL-2.0",
  attribution: "Public Suffix List (publicsuffix.org), Mozilla Foundation and contributors",
  snapshotPath: shippedFeedFile("public-suffix-list.dat"),
  sourceUrl: () => feedSourceUrl("public-suffix-list", "https://publicsuffix.org/list/public_suffix_list.dat"),
  parse(raw) {
    const data: PublicSuffixRules = { rules: new Set(), wildcards: new Set(), exceptions: new Set() };
    const lines = raw.toString("utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (!line || line.startsWith("//")) continue;
      const rule = line.split(/\s/)[0]!;
      const kind = rule.startsWith("!") ? "exception" : rule.startsWith("*.") ? "wildcard" : "rule";
      const body = kind === "exception" ? rule.slice(1) : kind === "wildcard" ? rule.slice(2) : rule;
      const ascii = domainToASCII(body);
      if (!ascii || ascii.includes("*"))
        throw new Error(`public suffix list: bad rule at line ${i + 1}: ${JSON.stringify(rule.slice(0, 60))}`);
      (kind === "exception" ? data.exceptions : kind === "wildcard" ? data.wildcards : data.rules).add(ascii);
    }
    const count = data.rules.size + data.wildcards.size + data.exceptions.size;
    if (count === 0) throw new Error("public suffix list: no rules");
    return { data, count };
  },
};
