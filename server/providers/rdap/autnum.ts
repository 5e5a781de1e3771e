// RDAP record of an autonomous system number: its name, holder, country and registration dates.
import { findRdapServer } from "./bootstrap";
import { queryRdap } from "./client";
import { eventDate, findAbuseContact, rdapString, readEntities, readEvents, type RdapEvent } from "./parse";
import type { RdapLookup, RdapSource } from "./types";

export interface AutnumRdapSummary {
  asn: number;
  handle: string | null;
  name: string | null;
  holder: string | null;
  country: string | null;
  registeredAt: string | null;
  lastChangedAt: string | null;
  events: RdapEvent[];
  abuseContact: { name: string | null; email: string | null; phone: string | null } | null;
  source: RdapSource;
}

export async function lookupAutnumRdap(asn: number): Promise<RdapLookup<AutnumRdapSummary>> {
  const server = findRdapServer({ kind: "asn", asn });
  if (!server) return { status: "not_found", reason: `AS${asn} is not in any RIR's range (reserved or private-use)` };
  const res = await queryRdap(server.baseUrl, `autnum/${asn}`);
  if (res.status === "not_found")
    return { status: "not_found", reason: `${server.registry} has no record of AS${asn}` };
  if (res.status === "unavailable") return { status: "unavailable", reason: `${server.registry} RDAP: ${res.reason}` };
  const b = res.body;
  const contacts = readEntities(b);
  const events = readEvents(b);
  const holder = contacts.find((c) => c.roles.includes("registrant")) ?? null;
  return {
    status: "ok",
    data: {
      asn,
      handle: rdapString(b.handle),
      name: rdapString(b.name),
      holder: holder?.name ?? null,
      country: rdapString(b.country) ?? holder?.country ?? null,
      registeredAt: eventDate(events, "registration"),
      lastChangedAt: eventDate(events, "last changed"),
      events,
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
