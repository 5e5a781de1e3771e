// "Copy as curl": the request the console is about to send, as an API user would send it, with the key left as a
// $KEY placeholder (the dashboard never holds a key's plaintext).
import type { LookupEntry } from "./catalog-types";

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlCommand(origin: string, entry: LookupEntry, values: Record<string, string>, body: string): string {
  let path = entry.path ?? "";
  const query = new URLSearchParams();
  for (const f of entry.fields) {
    const v = values[f.name] ?? "";
    if (f.in === "path") path = path.replace(`{${f.name}}`, encodeURIComponent(v || `{${f.name}}`));
    else if (v !== "") query.set(f.name, v);
  }
  const qs = query.toString();
  const url = `${origin}/v1${path}${qs ? `?${qs}` : ""}`;
  const lines = [`curl -X ${entry.method} ${shellQuote(url)}`, `  -H "Authorization: Bearer $KEY"`];
  if (entry.bodyTemplate !== null) {
    let compact = body.trim();
    try {
      compact = JSON.stringify(JSON.parse(body));
    } catch {
      // Sent as typed: the API will say what is wrong with it.
    }
    lines.push(`  -H "Content-Type: application/json"`, `  -d ${shellQuote(compact || "{}")}`);
  }
  return lines.join(" \\\n");
}
