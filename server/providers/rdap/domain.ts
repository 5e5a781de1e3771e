// RDAP summary of a domain registration: registrar, status, events, name servers, abuse contact. The query goes
// to the registry of the registrable domain (www.example.co.uk -> example.co.uk), which is what registries hold.
import { AppError } from "../../errors";
import { splitPublicSuffix } from "../../feeds/public-suffix";
import { findRdapServer } from "./bootstrap";
import { queryRdap } from "./client";
import {
  eventDate,
  findAbuseContact,
  rdapList,
  rdapString,
  readEntities,
  readEvents,
  readStatus,
  type RdapEvent,
} from "./parse";
import type { RdapLookup, RdapSource } from "./types";

export interface DomainRdapSummary {
  /** The registrable domain that was looked up. */
  domain: string;
  ldhName: string | null;
  unicodeName: string | null;
  handle: string | null;
  registrar: {
    name: string | null;
    ianaId: string | null;
    abuseEmail: string | null;
    abusePhone: string | null;
  } | null;
  status: string[];
  events: RdapEvent[];
  registeredAt: string | null;
  expiresAt: string | null;
  lastChangedAt: string | null;
  /** Whole days since registration, when the registry discloses the registration date. */
  ageDays: number | null;
  nameservers: string[];
  dnssecSigned: boolean | null;
  abuseContact: { name: string | null; email: string | null; phone: string | null } | null;
  source: RdapSource;
}

function registrarOf(b: Record<string, unknown>): DomainRdapSummary["registrar"] {
  const ent = rdapList(b.entities).find((e) => Array.isArray(e.roles) && e.roles.includes("registrar"));
  if (!ent) return null;
  const contacts = readEntities({ entities: [ent] });
  const ianaId = rdapList(ent.publicIds).find((p) => /iana/i.test(String(p.type)))?.identifier;
  const abuse = findAbuseContact(contacts.slice(1));
  return {
    name: contacts[0]?.name ?? null,
    ianaId: ianaId !== undefined ? String(ianaId) : null,
    abuseEmail: abuse?.email ?? null,
    abusePhone: abuse?.phone ?? null,
  };
}

export async function getDomainRdap(domain: string): Promise<RdapLookup<DomainRdapSummary>> {
  const split = splitPublicSuffix(domain);
  if (!split) return { status: "not_found", reason: "not a valid domain name" };
  if (!split.registrableDomain)
    return { status: "not_found", reason: `${split.host} is a public suffix, not a registrable domain` };
  const target = split.registrableDomain;
  const server = findRdapServer({ kind: "domain", domain: target });
  if (!server)
    return { status: "not_found", reason: `no RDAP service is listed for .${split.publicSuffix.split(".").pop()}` };
  const res = await queryRdap(server.baseUrl, `domain/${target}`);
  if (res.status === "not_found")
    return { status: "not_found", reason: `${server.registry} has no registration for ${target}` };
  if (res.status === "unavailable") return { status: "unavailable", reason: `${server.registry} RDAP: ${res.reason}` };
  const b = res.body;
  const events = readEvents(b);
  const registeredAt = eventDate(events, "registration");
  const contacts = readEntities(b);
  const secure = b.secureDNS as { delegationSigned?: unknown } | undefined;
  return {
    status: "ok",
    data: {
      domain: target,
      ldhName: rdapString(b.ldhName)?.toLowerCase() ?? null,
      unicodeName: rdapString(b.unicodeName),
      handle: rdapString(b.handle),
      registrar: registrarOf(b),
      status: readStatus(b),
      events,
      registeredAt,
      expiresAt: eventDate(events, "expiration"),
      lastChangedAt: eventDate(events, "last changed"),
      ageDays: registeredAt ? Math.floor((Date.now() - Date.parse(registeredAt)) / 86_400_000) : null,
      nameservers: rdapList(b.nameservers)
        .map((n) => rdapString(n.ldhName)?.toLowerCase())
        .filter((n): n is string => !!n),
      dnssecSigned: typeof secure?.delegationSigned === "boolean" ? secure.delegationSigned : null,
      abuseContact: findAbuseContact(contacts),
      source: {
        rdapServer: server.baseUrl,
        registry: server.registry,
        url: res.url,
        fetchedAt: res.fetchedAt.toISOString(),
        bootstrap: server.bootstrap,
      },
    },
  };
}

/** The summary, or 404 DOMAIN_NOT_FOUND / 503 UPSTREAM_UNAVAILABLE. */
export async function getDomainRdapOrThrow(domain: string): Promise<DomainRdapSummary> {
  const r = await getDomainRdap(domain);
  if (r.status === "ok") return r.data;
  if (r.status === "not_found")
    throw new AppError("DOMAIN_NOT_FOUND", `No registration found for ${domain}: ${r.reason}.`);
  throw new AppError("UPSTREAM_UNAVAILABLE", `RDAP lookup for ${domain} failed: ${r.reason}.`);
}
