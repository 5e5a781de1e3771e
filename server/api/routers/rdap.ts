// GET /ip/{ip}/rdap and GET /domain/{domain}/rdap: registration data from the registry's RDAP server.
import { domainToASCII } from "node:url";
import { z } from "zod";
import { splitPublicSuffix } from "../../feeds/public-suffix";
import { getDomainRdapOrThrow } from "../../providers/rdap/domain";
import { getIpRdapOrThrow } from "../../providers/rdap/ip";
import { domainRdapSchema, ipRdapSchema } from "../../providers/rdap/schema";
import { ipAddress } from "../schemas";
import { meteredProcedure, router } from "../trpc";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name with a registrable domain (letters, digits, hyphens; IDNs in Unicode or punycode). */
export const domainName = z
  .string()
  .trim()
  .max(253)
  // domainToASCII silently drops tabs and newlines, so refuse every control or space character first.
  .refine((s) => !/[\u0000-\u0020\u007f-\u009f]/.test(s), { message: "must not contain spaces or control characters" })
  .transform((s) => s.replace(/\.$/, "").toLowerCase())
  .refine(
    (s) => {
      const ascii = domainToASCII(s);
      return (
        !!ascii &&
        ascii.length <= 253 &&
        ascii.split(".").length >= 2 &&
        ascii.split(".").every((l) => LABEL.test(l)) &&
        splitPublicSuffix(ascii)?.registrableDomain != null
      );
    },
    { message: "must be a domain name under a public suffix, e.g. example.com" },
  )
  // Later stages see the checked ASCII form, never the raw input.
  .transform((s) => domainToASCII(s));

export const rdapRouter = router({
  ipRdap: meteredProcedure({
    capability: "full",
    endpoint: "ip.rdap",
    input: z.object({ ip: ipAddress }),
    decides: { publicAddress: (input) => input.ip },
    history: (input, out: z.infer<typeof ipRdapSchema>) => ({
      target: input.ip,
      summary: { network: out.name, country: out.country, registry: out.source.registry },
    }),
  })
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/ip/{ip}/rdap",
        tags: ["IP"],
        summary: "IP RDAP summary",
        description:
          "The network registration holding the address, from the Regional Internet Registry's RDAP server (found through the IANA bootstrap): " +
          "range and CIDRs, name, handle, country, registration and last-change dates, status, and the abuse contact's email and phone from the " +
          "RDAP entities. 404 NOT_FOUND for private or reserved space and unregistered addresses; 503 UPSTREAM_UNAVAILABLE when the registry " +
          "does not answer (the unit still counts).",
      },
    })
    .output(ipRdapSchema)
    .query(({ input }) => getIpRdapOrThrow(input.ip)),
  domainRdap: meteredProcedure({
    capability: "full",
    endpoint: "domain.rdap",
    input: z.object({ domain: domainName }),
    decides: { publicName: (input) => input.domain },
    history: (input, out: z.infer<typeof domainRdapSchema>) => ({
      target: input.domain,
      summary: { registrar: out.registrar?.name ?? null, registeredAt: out.registeredAt },
    }),
  })
    .meta({
      errors: ["DOMAIN_NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/domain/{domain}/rdap",
        tags: ["Domain"],
        summary: "Domain RDAP summary",
        description:
          "Registration data of the registrable domain of the name given (www.example.co.uk is looked up as example.co.uk) from its registry's " +
          "RDAP server: registrar (name, IANA id, abuse contact), status, events (registration, expiration, last change), age in days, name " +
          "servers, DNSSEC delegation and the abuse contact. 404 DOMAIN_NOT_FOUND when the registry has no such registration; 503 " +
          "UPSTREAM_UNAVAILABLE when it does not answer (the unit still counts).",
      },
    })
    .output(domainRdapSchema)
    .query(({ input }) => getDomainRdapOrThrow(input.domain)),
});
