// dns: the records of the chosen types (default A, AAAA, MX, NS), values only (TTLs count down and are left out);
// a changed record set is an alert. Runs GET /dns/lookup (dns.dnsLookup) once per record type.
import type { DnsLookupResult } from "../../dns/schemas";
import { sorted, type CheckSpec } from "./types";

export const DEFAULT_RECORD_TYPES = ["A", "AAAA", "MX", "NS"];

export const dnsCheck: CheckSpec = {
  type: "dns",
  about: "dns: the record sets of `record_types` (default A, AAAA, MX, NS)",
  needsName: true,
  procedure: "dns.dnsLookup",
  calls: (t, o) =>
    (o.record_types?.length ? o.record_types : DEFAULT_RECORD_TYPES).map((type) => ({ domain: t.host, type })),
  state(answers: DnsLookupResult[]) {
    const state: Record<string, { status: string; records: string[] }> = {};
    for (const a of answers) state[a.type] = { status: a.status, records: sorted(a.records.map((r) => r.value)) };
    const broken = answers.some((a) => a.status === "NXDOMAIN" || a.status === "SERVFAIL");
    return { state, severity: broken ? "critical" : "ok" };
  },
};
