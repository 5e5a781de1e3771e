// CSV export of investigation events (RFC 4180: CRLF line ends, quotes doubled). Cells that a spreadsheet would
// read as a formula are prefixed with an apostrophe, so an exported value can never execute.
export interface CsvEvent {
  id: string;
  requestId: string;
  type: string;
  actor: string | null;
  ip: string | null;
  email: string | null;
  domain: string | null;
  rule: string | null;
  data: unknown;
  createdAt: Date;
}

const COLUMNS = ["id", "created_at", "request_id", "type", "actor", "ip", "email", "domain", "rule", "data"] as const;

export function csvCell(v: string | null): string {
  if (v === null) return "";
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function eventsToCsv(events: CsvEvent[]): string {
  const lines = [COLUMNS.join(",")];
  for (const e of events) {
    lines.push(
      [
        e.id,
        e.createdAt.toISOString(),
        e.requestId,
        e.type,
        e.actor,
        e.ip,
        e.email,
        e.domain,
        e.rule,
        JSON.stringify(e.data ?? {}),
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
