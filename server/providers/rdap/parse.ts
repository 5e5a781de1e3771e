// Reading RDAP objects (RFC 9083): entities with jCard contacts, events, status, links. Tolerant of the many
// registry variations: anything missing becomes null rather than an error.
import type { RdapObject } from "./client";

export interface RdapContact {
  handle: string | null;
  roles: string[];
  name: string | null;
  kind: string | null;
  email: string | null;
  phone: string | null;
  country: string | null;
}

export interface RdapEvent {
  action: string;
  date: string;
  actor: string | null;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);
const list = (v: unknown): RdapObject[] =>
  Array.isArray(v) ? (v.filter((x) => x && typeof x === "object") as RdapObject[]) : [];

/** jCard ["vcard", [[name, params, type, value], ...]] -> the fields a summary needs. */
function readVcard(vcardArray: unknown): Omit<RdapContact, "handle" | "roles"> {
  const out = {
    name: null as string | null,
    kind: null as string | null,
    email: null as string | null,
    phone: null as string | null,
    country: null as string | null,
  };
  const props = Array.isArray(vcardArray) && Array.isArray(vcardArray[1]) ? (vcardArray[1] as unknown[]) : [];
  for (const p of props) {
    if (!Array.isArray(p) || p.length < 4) continue;
    const [key, params, , value] = p as [string, Record<string, unknown>, string, unknown];
    if (key === "fn") out.name ??= str(value);
    else if (key === "kind") out.kind ??= str(value);
    else if (key === "email") out.email ??= str(value);
    else if (key === "tel") out.phone ??= str(value)?.replace(/^tel:/i, "") ?? null;
    else if (key === "adr") {
      const parts = Array.isArray(value) ? value : [];
      const label = str(params?.label);
      out.country ??= str(params?.cc) ?? str(parts[6]) ?? (label ? str(label.split("\n").pop()) : null);
    } else if (key === "org" && !out.name) out.name = str(Array.isArray(value) ? value[0] : value);
  }
  return out;
}

/** Every entity, nested ones included (ARIN puts the abuse contact inside the registrant). */
export function readEntities(obj: RdapObject): RdapContact[] {
  const out: RdapContact[] = [];
  const walk = (entities: RdapObject[]) => {
    for (const e of entities) {
      const roles = Array.isArray(e.roles) ? (e.roles.filter((r) => typeof r === "string") as string[]) : [];
      out.push({ handle: str(e.handle), roles, ...readVcard(e.vcardArray) });
      walk(list(e.entities));
    }
  };
  walk(list(obj.entities));
  return out;
}

export function findAbuseContact(
  contacts: RdapContact[],
): { name: string | null; email: string | null; phone: string | null } | null {
  const abuse = contacts.find((c) => c.roles.includes("abuse") && (c.email || c.phone));
  return abuse ? { name: abuse.name, email: abuse.email, phone: abuse.phone } : null;
}

export function readEvents(obj: RdapObject): RdapEvent[] {
  return list(obj.events)
    .map((e) => ({ action: str(e.eventAction) ?? "", date: str(e.eventDate) ?? "", actor: str(e.eventActor) }))
    .filter((e) => e.action && e.date && !Number.isNaN(Date.parse(e.date)))
    .map((e) => ({ ...e, date: new Date(e.date).toISOString() }));
}

export function eventDate(events: RdapEvent[], action: string): string | null {
  return events.find((e) => e.action === action)?.date ?? null;
}

export function readStatus(obj: RdapObject): string[] {
  return Array.isArray(obj.status) ? (obj.status.filter((s) => typeof s === "string") as string[]) : [];
}

export { str as rdapString, list as rdapList };
