// DANE for SMTP (RFC 7672): TLSA records at _25._tcp.<mx> pin the certificate a sender must see, and make STARTTLS
// mandatory. They only count when DNSSEC-validated: our stub resolver does not validate, so it asks for the AD bit
// and trusts the records only when the configured resolver says it validated them; otherwise they are unverifiable.
import { isAnswered, queryTlsa, type TlsaData } from "../../providers/dns";
import type { CheckStatus } from "./verdict";

export interface DaneRecord extends TlsaData {
  /** Why the record is malformed or discouraged, null when it is a usual DANE-EE or DANE-TA record. */
  problem: string | null;
}

export interface DaneHost {
  host: string;
  name: string;
  lookup: "found" | "none" | "failed";
  dnssecValidated: boolean;
  records: DaneRecord[];
}

export interface DaneCheck {
  status: CheckStatus;
  reason: string;
  present: boolean;
  dnssecValidated: boolean;
  hosts: DaneHost[];
}

const MAX_MX_HOSTS = 10;
const DIGEST_BYTES: Record<number, number> = { 1: 32, 2: 64 };
const USAGE = ["PKIX-TA", "PKIX-EE", "DANE-TA", "DANE-EE"];

/** RFC 6698 section 2.1 field ranges and digest sizes; RFC 7672 section 3.1.3 on usages 0 and 1 for SMTP. */
export function tlsaProblem(d: TlsaData): { malformed: boolean; text: string } | null {
  const bytes = d.certificateHex.length / 2;
  if (d.usage > 3) return { malformed: true, text: `usage ${d.usage} is not 0..3` };
  if (d.selector > 1) return { malformed: true, text: `selector ${d.selector} is not 0 (certificate) or 1 (key)` };
  if (d.matchingType > 2) return { malformed: true, text: `matching type ${d.matchingType} is not 0..2` };
  const want = DIGEST_BYTES[d.matchingType];
  if (want && bytes !== want)
    return { malformed: true, text: `a SHA-${want === 32 ? 256 : 512} digest is ${want} bytes, this one ${bytes}` };
  if (bytes === 0) return { malformed: true, text: "the certificate data is empty" };
  if (d.usage < 2)
    return { malformed: false, text: `usage ${d.usage} (${USAGE[d.usage]}) is discouraged for SMTP (RFC 7672 3.1.3)` };
  return null;
}

export async function checkDane(domain: string, mx: string[] | null): Promise<DaneCheck> {
  const base: DaneCheck = { status: "warn", reason: "", present: false, dnssecValidated: false, hosts: [] };
  const out = (d: Partial<DaneCheck> & { status: CheckStatus; reason: string }) => ({ ...base, ...d });
  if (!mx) return out({ status: "unknown", reason: "The MX lookup failed, so the TLSA records were not looked up." });
  if (mx.length === 0)
    return out({
      status: "warn",
      reason: `${domain} has no MX host, so DANE (optional hardening) has nothing to protect.`,
    });
  const hosts = await Promise.all(mx.slice(0, MAX_MX_HOSTS).map(lookupHost));
  const withRecords = hosts.filter((h) => h.lookup === "found");
  base.hosts = hosts;
  base.present = withRecords.length > 0;
  base.dnssecValidated = base.present && withRecords.every((h) => h.dnssecValidated);
  const failed = hosts.filter((h) => h.lookup === "failed").map((h) => h.name);
  const names = (list: DaneHost[]) => list.map((h) => h.host).join(", ");
  const problems = withRecords.flatMap((h) =>
    h.records.flatMap((r) => (r.problem ? [{ host: h.host, r, ...tlsaProblem(r)! }] : [])),
  );
  const malformed = problems.filter((p) => p.malformed);
  if (malformed.length)
    return out({
      status: "fail",
      reason: `Malformed TLSA record${malformed.length > 1 ? "s" : ""}: ${malformed.map((p) => `${p.host}: ${p.text}`).join("; ")}. Senders that use DANE cannot match it and may refuse delivery.`,
    });
  if (!base.present) {
    if (failed.length)
      return out({ status: "unknown", reason: `The TLSA lookups of ${failed.join(", ")} failed; retry later.` });
    return out({
      status: "warn",
      reason: `No DANE TLSA records at _25._tcp of ${names(hosts)}. DANE is optional hardening: with DNSSEC-signed zones, publish "3 1 1 <SHA-256 of the server key>" records to make verified TLS mandatory for senders that support it (RFC 7672).`,
    });
  }
  if (!base.dnssecValidated)
    return out({
      status: "warn",
      reason: `TLSA records found for ${names(withRecords)} but the resolver did not validate them with DNSSEC, so they cannot be trusted: unverifiable. Senders ignore TLSA records unless the zone is DNSSEC-signed.`,
    });
  const missing = hosts.filter((h) => h.lookup === "none");
  if (missing.length)
    return out({
      status: "warn",
      reason: `TLSA records cover ${names(withRecords)} but not ${names(missing)}: mail to those hosts is not protected by DANE.`,
    });
  if (problems.length)
    return out({
      status: "warn",
      reason: `${problems.map((p) => `${p.host}: ${p.text}`).join("; ")}. Use 3 1 1 or 2 1 1.`,
    });
  return out({ status: "pass", reason: `DNSSEC-validated TLSA records protect every MX host (${names(hosts)}).` });
}

async function lookupHost(host: string): Promise<DaneHost> {
  const name = `_25._tcp.${host}`;
  const q = await queryTlsa(name);
  const records = q.records
    .filter((r) => r.type === "TLSA")
    .map((r) => ({ ...r.data, problem: tlsaProblem(r.data)?.text ?? null }));
  const lookup = !isAnswered(q) ? "failed" : records.length ? "found" : "none";
  return { host, name, lookup, dnssecValidated: q.authenticated, records };
}
