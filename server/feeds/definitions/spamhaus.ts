// Spamhaus DROP (Don't Route Or Peer) lists: netblocks and ASNs hijacked or run by professional spam or cybercrime
// operations. No npm package carries them, so the shipped snapshots are empty and `feeds refresh` fills them.
// Both the JSON-lines format (drop_v4.json, drop_v6.json, asndrop.json) and the older text format are read.
import { feedSourceUrl, shippedFeedFile } from "../config";
import { IpRangeSet, parseCidr, type ParsedRange } from "../ip-range-set";
import type { FeedDefinition } from "../types";

export interface DropEntry {
  cidr: string;
  sblId: string | null;
}

export interface AsnDropEntry {
  asn: number;
  name: string | null;
  country: string | null;
}

const LICENSE = "Spamhaus DROP terms of use (free use; see https://www.spamhaus.org/drop/terms/)";
const ATTRIBUTION = "The Spamhaus Project SLU, https://www.spamhaus.org/drop/";
const BASE = "https://www.spamhaus.org/drop";

type Row = Record<string, unknown>;

/** JSON lines, or "value ; comment" text lines; ";" and "#" lines are comments. Returns rows and the list date. */
function readLines(raw: Buffer, textField: string): { rows: Row[]; version: string | null } {
  const rows: Row[] = [];
  let version: string | null = null;
  const lines = raw.toString("utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line || line.startsWith(";") || line.startsWith("#")) {
      const m = /Last-Modified:\s*(.+)$/i.exec(line);
      if (m && !version) version = new Date(m[1]!).toISOString();
      continue;
    }
    if (line.startsWith("{")) {
      let row: Row;
      try {
        row = JSON.parse(line) as Row;
      } catch {
        throw new Error(`malformed JSON at line ${i + 1}`);
      }
      if (row.type === "metadata") {
        if (typeof row.timestamp === "number") version = new Date(row.timestamp * 1000).toISOString();
        continue;
      }
      rows.push(row);
    } else {
      const [value, comment] = line.split(";").map((s) => s.trim());
      rows.push({ [textField]: value, comment: comment ?? null });
    }
  }
  return { rows, version };
}

function dropFeed(name: string, file: string, description: string): FeedDefinition<IpRangeSet<DropEntry>> {
  return {
    name,
    description,
    license: LICENSE,
    attribution: ATTRIBUTION,
    snapshotPath: shippedFeedFile(`${name}.txt`),
    sourceUrl: () => feedSourceUrl(name, `${BASE}/${file}`),
    parse(raw) {
      const { rows, version } = readLines(raw, "cidr");
      const entries: { range: ParsedRange; label: DropEntry }[] = [];
      for (const row of rows) {
        const cidr = typeof row.cidr === "string" ? row.cidr : "";
        const range = parseCidr(cidr);
        if (!range || !cidr.includes("/")) throw new Error(`not a CIDR: ${JSON.stringify(cidr.slice(0, 60))}`);
        const sbl = typeof row.sblid === "string" ? row.sblid : typeof row.comment === "string" ? row.comment : null;
        entries.push({ range, label: { cidr, sblId: sbl || null } });
      }
      return { data: IpRangeSet.build(entries), count: entries.length, version };
    },
  };
}

export const spamhausDropFeed = dropFeed("spamhaus-drop", "drop_v4.json", "Spamhaus DROP: IPv4 netblocks to drop");
export const spamhausDropV6Feed = dropFeed(
  "spamhaus-drop-v6",
  "drop_v6.json",
  "Spamhaus DROPv6: IPv6 netblocks to drop",
);

export const spamhausAsnDropFeed: FeedDefinition<Map<number, AsnDropEntry>> = {
  name: "spamhaus-asndrop",
  description: "Spamhaus ASN-DROP: autonomous systems to drop",
  license: LICENSE,
  attribution: ATTRIBUTION,
  snapshotPath: shippedFeedFile("spamhaus-asndrop.txt"),
  sourceUrl: () => feedSourceUrl("spamhaus-asndrop", `${BASE}/asndrop.json`),
  parse(raw) {
    const { rows, version } = readLines(raw, "asn");
    const data = new Map<number, AsnDropEntry>();
    for (const row of rows) {
      const asn = typeof row.asn === "number" ? row.asn : Number(String(row.asn ?? "").replace(/^AS/i, ""));
      if (!Number.isInteger(asn) || asn <= 0)
        throw new Error(`not an ASN: ${JSON.stringify(String(row.asn).slice(0, 40))}`);
      // Text format comment: "CC | AS-NAME".
      const [cc, textName] = typeof row.comment === "string" ? row.comment.split("|").map((s) => s.trim()) : [];
      data.set(asn, {
        asn,
        name: typeof row.asname === "string" ? row.asname : (textName ?? null),
        country: typeof row.cc === "string" ? row.cc : (cc ?? null),
      });
    }
    return { data, count: data.size, version };
  },
};

export const SPAMHAUS_FEEDS = [spamhausDropFeed, spamhausDropV6Feed, spamhausAsnDropFeed] as const;
