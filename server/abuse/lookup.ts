// GET /ip/{ip}/abuse and GET /domain/{domain}/abuse: whom to report abuse to, from the registry's RDAP answer.
import { AppError } from "../errors";
import { splitPublicSuffix } from "../feeds/public-suffix";
import { classifyIp } from "../net/ip";
import { findRdapServer } from "../providers/rdap/bootstrap";
import { queryRdap, type RdapObject } from "../providers/rdap/client";
import { rdapList, rdapString, readEntities } from "../providers/rdap/parse";
import { resolveAbuseContact } from "./contacts";
import type { DomainAbuse, IpAbuse } from "./schemas";

type Server = NonNullable<ReturnType<typeof findRdapServer>>;

async function fetchOrThrow(server: Server, path: string, notFound: () => AppError) {
  const res = await queryRdap(server.baseUrl, path);
  if (res.status === "not_found") throw notFound();
  if (res.status === "unavailable")
    throw new AppError("UPSTREAM_UNAVAILABLE", `${server.registry} RDAP: ${res.reason}.`);
  return res;
}

const sourceOf = (server: Server, url: string, fetchedAt: Date) => ({
  rdap_server: server.baseUrl,
  registry: server.registry,
  url,
  fetched_at: fetchedAt.toISOString(),
});

export async function getIpAbuseOrThrow(ip: string): Promise<IpAbuse> {
  const server = findRdapServer({ kind: "ip", address: ip });
  if (!server) {
    const scope = classifyIp(ip);
    throw new AppError(
      "NOT_FOUND",
      scope.scope === "public"
        ? `No RDAP registry is listed for ${ip}.`
        : `${ip} is ${scope.reason ?? scope.scope} space, registered with no RIR.`,
    );
  }
  const res = await fetchOrThrow(
    server,
    `ip/${ip}`,
    () => new AppError("NOT_FOUND", `${server.registry} has no network registration for ${ip}.`),
  );
  const b = res.body;
  const abuse = await resolveAbuseContact(b, server.baseUrl);
  const registrant = readEntities(b).find((c) => c.roles.includes("registrant"));
  return {
    ip,
    abuse: abuse.contact,
    reason: abuse.reason,
    network: {
      handle: rdapString(b.handle),
      name: rdapString(b.name),
      start_address: rdapString(b.startAddress),
      end_address: rdapString(b.endAddress),
      country: rdapString(b.country) ?? registrant?.country ?? null,
      organization: registrant?.name ?? null,
    },
    followed_links: abuse.followed,
    source: sourceOf(server, res.url, res.fetchedAt),
    checked_at: new Date().toISOString(),
  };
}

const hasRole = (e: RdapObject, role: string) => Array.isArray(e.roles) && (e.roles as unknown[]).includes(role);

export async function getDomainAbuseOrThrow(domain: string): Promise<DomainAbuse> {
  const split = splitPublicSuffix(domain);
  const target = split?.registrableDomain;
  if (!split || !target) throw new AppError("DOMAIN_NOT_FOUND", `${domain} is not a registrable domain.`);
  const server = findRdapServer({ kind: "domain", domain: target });
  if (!server)
    throw new AppError("DOMAIN_NOT_FOUND", `No RDAP service is listed for .${split.publicSuffix.split(".").pop()}.`);
  const res = await fetchOrThrow(
    server,
    `domain/${target}`,
    () => new AppError("DOMAIN_NOT_FOUND", `${server.registry} has no registration for ${target}.`),
  );
  const b = res.body;
  // ICANN's RDAP profile puts the registrar's abuse contact inside the registrar entity: prefer it.
  const abuse = await resolveAbuseContact(b, server.baseUrl, (f) => f.path.includes("registrar"));
  const registrar = rdapList(b.entities).find((e) => hasRole(e, "registrar"));
  const registrarContact = registrar ? readEntities({ entities: [{ ...registrar, entities: [] }] })[0] : undefined;
  const ianaId = registrar
    ? rdapList(registrar.publicIds).find((p) => /iana/i.test(String(p.type)))?.identifier
    : undefined;
  return {
    domain: target,
    abuse: abuse.contact,
    reason: abuse.reason,
    registrar: registrar
      ? { name: registrarContact?.name ?? null, iana_id: ianaId !== undefined ? String(ianaId) : null }
      : null,
    followed_links: abuse.followed,
    source: sourceOf(server, res.url, res.fetchedAt),
    checked_at: new Date().toISOString(),
  };
}
