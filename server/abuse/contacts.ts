// Abuse contacts from RDAP: the entity with the `abuse` role, nested or not. Some registries (RIPE, APNIC, LACNIC)
// name the abuse entity by handle only and publish its vCard at its own URL: that link is followed, on the same
// RDAP server only (a link elsewhere could point anywhere), and at most a few times.
import { findRdapServer, type RdapTarget } from "../providers/rdap/bootstrap";
import { queryRdap, type RdapObject } from "../providers/rdap/client";
import { rdapList, rdapString, readEntities } from "../providers/rdap/parse";

export type AbuseContact = { name: string | null; email: string | null; phone: string | null; handle: string | null };
export type RawAbuse = { contact: AbuseContact | null; followed: string[]; reason: string | null };

const MAX_FOLLOWS = 3;

type Found = { entity: RdapObject; path: string[] };

/** Abuse-role entities in document order, with the roles of the entities they are nested in. */
function abuseEntities(obj: RdapObject, within: string[] = []): Found[] {
  const out: Found[] = [];
  for (const e of rdapList(obj.entities)) {
    const roles = Array.isArray(e.roles)
      ? (e.roles as unknown[]).filter((r): r is string => typeof r === "string")
      : [];
    if (roles.includes("abuse")) out.push({ entity: e, path: within });
    out.push(...abuseEntities(e, [...within, ...roles]));
  }
  return out;
}

function contactOf(entity: RdapObject): AbuseContact | null {
  const c = readEntities({ entities: [{ ...entity, entities: [] }] })[0];
  if (!c || (!c.email && !c.phone)) return null;
  return { name: c.name, email: c.email, phone: c.phone, handle: c.handle };
}

/** The entity's own URL on the same server: its `self` link when it stays there, else entity/{handle}. */
function entityPath(entity: RdapObject, serverBase: string): string | null {
  const base = new URL(serverBase);
  const self = rdapList(entity.links).find((l) => l.rel === "self" && typeof l.href === "string");
  if (self) {
    try {
      const u = new URL(String(self.href), base);
      if (u.origin === base.origin && u.pathname.startsWith(base.pathname))
        return u.pathname.slice(base.pathname.length) + u.search;
    } catch {
      // an unusable link: fall back to the handle
    }
  }
  const handle = rdapString(entity.handle);
  return handle ? `entity/${encodeURIComponent(handle)}` : null;
}

/** Picks the abuse contact of an RDAP object; `prefer` chooses among several (e.g. the registrar's for domains). */
export async function resolveAbuseContact(
  body: RdapObject,
  serverBase: string,
  prefer?: (f: Found) => boolean,
): Promise<RawAbuse> {
  const found = abuseEntities(body);
  const ordered = prefer ? [...found.filter(prefer), ...found.filter((f) => !prefer(f))] : found;
  const followed: string[] = [];
  for (const f of ordered) {
    const direct = contactOf(f.entity);
    if (direct) return { contact: direct, followed, reason: null };
    const path = followed.length < MAX_FOLLOWS ? entityPath(f.entity, serverBase) : null;
    if (!path) continue;
    const res = await queryRdap(serverBase, path);
    followed.push(new URL(path, serverBase).toString());
    if (res.status === "ok") {
      const linked = contactOf(res.body);
      if (linked)
        return { contact: { ...linked, handle: linked.handle ?? rdapString(f.entity.handle) }, followed, reason: null };
    }
  }
  const reason =
    found.length === 0
      ? "The registry publishes no entity with the abuse role for this object."
      : "The registry names an abuse entity but publishes no email or phone for it.";
  return { contact: null, followed, reason };
}

export { findRdapServer, queryRdap, type RdapTarget };
