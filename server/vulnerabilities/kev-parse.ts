// Reads CISA's Known Exploited Vulnerabilities catalog in either of the forms CISA publishes: the JSON feed
// (known_exploited_vulnerabilities.json, with catalogVersion and dateReleased) or the CSV file (same columns,
// no catalog header).
export type KevEntry = {
  cveId: string;
  vendorProject: string;
  product: string;
  vulnerabilityName: string;
  dateAdded: string;
  shortDescription: string;
  requiredAction: string;
  dueDate: string | null;
  knownRansomwareCampaignUse: string;
  notes: string;
  cwes: string[];
};

export type KevCatalog = {
  title: string;
  catalogVersion: string | null;
  dateReleased: string | null;
  /** True when the data is a labelled subset of the catalog (the shipped snapshot may be one). */
  partial: boolean;
  note: string | null;
  entries: KevEntry[];
  byCve: Map<string, KevEntry>;
};

const CVE_ID = /^CVE-\d{4}-\d{4,}$/;

function text(v: unknown): string {
  return typeof v === "string" ? v.trim() : "";
}

function toEntry(raw: Record<string, unknown>): KevEntry {
  const cveId = text(raw.cveID).toUpperCase();
  if (!CVE_ID.test(cveId)) throw new Error(`KEV record with malformed cveID "${String(raw.cveID)}"`);
  const cwes = Array.isArray(raw.cwes)
    ? raw.cwes.map(text).filter(Boolean)
    : text(raw.cwes)
        .split(/[,;]\s*/)
        .map((s) => s.trim())
        .filter(Boolean);
  return {
    cveId,
    vendorProject: text(raw.vendorProject),
    product: text(raw.product),
    vulnerabilityName: text(raw.vulnerabilityName),
    dateAdded: text(raw.dateAdded),
    shortDescription: text(raw.shortDescription),
    requiredAction: text(raw.requiredAction),
    dueDate: text(raw.dueDate) || null,
    knownRansomwareCampaignUse: text(raw.knownRansomwareCampaignUse) || "Unknown",
    notes: text(raw.notes),
    cwes,
  };
}

/** RFC 4180 CSV rows (quoted fields, doubled quotes, newlines inside quotes). */
export function parseCsvRows(input: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && input[i + 1] === "\n") i++;
      row.push(field);
      if (row.some((f) => f !== "")) rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== "")) rows.push(row);
  return rows;
}

function catalogOf(meta: Omit<KevCatalog, "entries" | "byCve">, entries: KevEntry[]): KevCatalog {
  const sorted = [...entries].sort((a, b) =>
    a.dateAdded === b.dateAdded ? a.cveId.localeCompare(b.cveId) : a.dateAdded < b.dateAdded ? 1 : -1,
  );
  return { ...meta, entries: sorted, byCve: new Map(sorted.map((e) => [e.cveId, e])) };
}

export function parseKevCatalog(raw: Buffer | string): KevCatalog {
  const body = (typeof raw === "string" ? raw : raw.toString("utf8")).replace(/^\uFEFF/, "").trim();
  if (body.startsWith("{")) {
    const doc = JSON.parse(body) as Record<string, unknown>;
    if (!Array.isArray(doc.vulnerabilities)) throw new Error("KEV JSON has no vulnerabilities array");
    return catalogOf(
      {
        title: text(doc.title) || "CISA Catalog of Known Exploited Vulnerabilities",
        catalogVersion: text(doc.catalogVersion) || null,
        dateReleased: text(doc.dateReleased) || null,
        partial: doc.partial === true,
        note: text(doc.snapshotNote) || null,
      },
      (doc.vulnerabilities as Array<Record<string, unknown>>).map(toEntry),
    );
  }
  const [header, ...rows] = parseCsvRows(body);
  if (!header || header[0] !== "cveID") throw new Error("KEV data is neither the JSON feed nor the CSV file");
  const entries = rows.map((r) => toEntry(Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""]))));
  return catalogOf(
    {
      title: "CISA Catalog of Known Exploited Vulnerabilities",
      catalogVersion: null,
      dateReleased: null,
      partial: false,
      note: null,
    },
    entries,
  );
}
