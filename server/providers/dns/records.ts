// Turns dns-packet answers into our DnsRecord shape.
import type { Answer } from "dns-packet";
import { DNS_RECORD_TYPES, type DnsRecord, type DnsRecordType, type TlsaRecord } from "./types";

const KNOWN = new Set<string>(DNS_RECORD_TYPES);
const strip = (name: string) => name.replace(/\.$/, "").toLowerCase();
const txtString = (b: unknown) => (Buffer.isBuffer(b) ? b.toString("utf8") : String(b));
const quote = (s: string) => `"${s.replace(/(["\\])/g, "\\$1")}"`;

export function toDnsRecord(a: Answer): DnsRecord | null {
  if (!KNOWN.has(a.type)) return null;
  const type = a.type as DnsRecordType;
  const base = { name: strip(a.name), type, ttl: "ttl" in a && typeof a.ttl === "number" ? a.ttl : 0 };
  const d = (a as { data: unknown }).data;
  switch (type) {
    case "A":
    case "AAAA":
      return { ...base, value: String(d), data: null };
    case "CNAME":
    case "NS":
    case "PTR":
      return { ...base, value: strip(String(d)), data: null };
    case "MX": {
      const mx = d as { preference?: number; exchange: string };
      const data = { preference: mx.preference ?? 0, exchange: strip(mx.exchange) };
      return { ...base, value: `${data.preference} ${data.exchange || "."}`, data };
    }
    case "TXT": {
      const parts = Array.isArray(d) ? d : [d];
      const strings = parts.map(txtString);
      return { ...base, value: strings.map(quote).join(" "), data: { strings } };
    }
    case "SOA": {
      const s = d as {
        mname: string;
        rname: string;
        serial?: number;
        refresh?: number;
        retry?: number;
        expire?: number;
        minimum?: number;
      };
      const data = {
        mname: strip(s.mname),
        rname: strip(s.rname),
        serial: s.serial ?? 0,
        refresh: s.refresh ?? 0,
        retry: s.retry ?? 0,
        expire: s.expire ?? 0,
        minimum: s.minimum ?? 0,
      };
      return {
        ...base,
        value: `${data.mname} ${data.rname} ${data.serial} ${data.refresh} ${data.retry} ${data.expire} ${data.minimum}`,
        data,
      };
    }
    case "CAA": {
      const c = d as { flags?: number; tag: string; value: string };
      const data = { flags: c.flags ?? 0, tag: c.tag, value: c.value };
      return { ...base, value: `${data.flags} ${data.tag} ${quote(data.value)}`, data };
    }
    case "SRV": {
      const s = d as { priority?: number; weight?: number; port: number; target: string };
      const data = { priority: s.priority ?? 0, weight: s.weight ?? 0, port: s.port, target: strip(s.target) };
      return { ...base, value: `${data.priority} ${data.weight} ${data.port} ${data.target}`, data };
    }
  }
}

/** A TLSA answer (RFC 6698 section 2) in our shape; null for any other record of the answer. */
export function toTlsaRecord(a: Answer): TlsaRecord | null {
  if (a.type !== "TLSA") return null;
  const t = a.data;
  const data = {
    usage: t.usage,
    selector: t.selector,
    matchingType: t.matchingType,
    certificateHex: Buffer.from(t.certificate).toString("hex"),
  };
  const ttl = typeof a.ttl === "number" ? a.ttl : 0;
  const value = `${data.usage} ${data.selector} ${data.matchingType} ${data.certificateHex}`;
  return { name: strip(a.name), type: "TLSA", ttl, value, data };
}
