// RDAP summary of the network registration that holds an IP address.
import { AppError } from "../../errors";
import { classifyIp } from "../../net/ip";
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
  type RdapContact,
  type RdapEvent,
} from "./parse";
import type { RdapLookup, RdapSource } from "./types";

export interface IpRdapSummary {
  ip: string;
  handle: string | null;
  name: string | null;
  type: string | null;
  startAddress: string | null;
  endAddress: string | null;
  cidrs: string[];
  country: string | null;
  parentHandle: string | null;
  status: string[];
  registeredAt: string | null;
  lastChangedAt: string | null;
  events: RdapEvent[];
  abuseContact: { name: string | null; email: string | null; phone: string | null } | null;
  registrant: { name: string | null; kind: string | null; country: string | null } | null;
  contacts: RdapContact[];
  source: RdapSource;
}

function cidrsOf(body: Record<string, unknown>): string[] {
  return rdapList(body.cidr0_cidrs)
    .map((c) => {
      const prefix = rdapString(c.v4prefix) ?? rdapString(c.v6prefix);
      return prefix && typeof c.length === "number" ? `${prefix}/${c.length}` : null;
    })
    .filter((c): c is string => c !== null);
}

export async function lookupIpRdap(ip: string): Promise<RdapLookup<IpRdapSummary>> {
  const server = findRdapServer({ kind: "ip", address: ip });
  if (!server) {
    const scope = classifyIp(ip);
    const why =
      scope.scope === "public"
        ? "no RDAP registry is listed for this address block"
        : `${scope.reason ?? scope.scope}: not registered with an RIR`;
    return { status: "not_found", reason: why };
  }
  const res = await queryRdap(server.baseUrl, `ip/${ip}`);
  if (res.status === "not_found")
    return { status: "not_found", reason: `${server.registry} has no network registration for ${ip}` };
  if (res.status === "unavailable") return { status: "unavailable", reason: `${server.registry} RDAP: ${res.reason}` };
  const b = res.body;
  const contacts = readEntities(b);
  const events = readEvents(b);
  const registrant = contacts.find((c) => c.roles.includes("registrant")) ?? null;
  return {
    status: "ok",
    data: {
      ip,
      handle: rdapString(b.handle),
      name: rdapString(b.name),
      type: rdapString(b.type),
      startAddress: rdapString(b.startAddress),
      endAddress: rdapString(b.endAddress),
      cidrs: cidrsOf(b),
      country: rdapString(b.country) ?? registrant?.country ?? null,
      parentHandle: rdapString(b.parentHandle),
      status: readStatus(b),
      registeredAt: eventDate(events, "registration"),
      lastChangedAt: eventDate(events, "last changed"),
      events,
      abuseContact: findAbuseContact(contacts),
      registrant: registrant ? { name: registrant.name, kind: registrant.kind, country: registrant.country } : null,
      contacts,
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

/** The summary, or 404 NOT_FOUND / 503 UPSTREAM_UNAVAILABLE. */
export async function getIpRdapOrThrow(ip: string): Promise<IpRdapSummary> {
  const r = await lookupIpRdap(ip);
  if (r.status === "ok") return r.data;
  if (r.status === "not_found") throw new AppError("NOT_FOUND", `No RDAP record for ${ip}: ${r.reason}.`);
  throw new AppError("UPSTREAM_UNAVAILABLE", `RDAP lookup for ${ip} failed: ${r.reason}.`);
}
