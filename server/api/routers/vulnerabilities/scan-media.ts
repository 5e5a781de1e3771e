// Which rendering of a scan the caller asked for, from its Accept header: JSON unless SARIF or CSV is preferred (by
// q-value, then by the order written). A header naming none of them, or none at all, gets JSON: there is no 406.
export type ScanMediaType = "application/json" | "application/sarif+json" | "text/csv";

const OFFERED: ScanMediaType[] = ["application/json", "application/sarif+json", "text/csv"];

export function preferredScanMediaType(accept: string | null | undefined): ScanMediaType {
  if (!accept) return "application/json";
  let best: { type: ScanMediaType; q: number; at: number } | null = null;
  accept.split(",").forEach((part, at) => {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) return;
    const type = OFFERED.find((t) => t === range?.trim());
    if (!type) return;
    if (!best || q > best.q) best = { type, q, at };
  });
  return (best as { type: ScanMediaType } | null)?.type ?? "application/json";
}
