// What several procedures of the domain router share (schemas, helpers), or what other modules import from it.
// Every route that takes a domain in its path parses it here, with server/dns/names.ts underneath (issue 42, item 5):
// /domain/{domain}, its subdomains, RDAP and abuse routes need a registrable domain, the infrastructure route a host
// name. An address spelling (1.2.3.4, or 0x10, which a URL parser reads as 0.0.0.16) is never a domain: 400
// INVALID_REQUEST before admission, no unit, on every one of them.
import { z } from "zod";
import { checkDomainName } from "../../../dns/names";
import { registrableNameOf } from "../../../domain/registrable";

/** A domain or host name with a registrable domain, passed on as its checked lowercase ASCII form. */
export const registrableDomain = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .superRefine((d, ctx) => {
    const r = registrableNameOf(d);
    if (!r.ok) ctx.addIssue({ code: "custom", message: r.reason });
  })
  // Later stages see the checked ASCII form (IDNs in punycode), never the raw input.
  .transform((d) => {
    const r = registrableNameOf(d);
    return r.ok ? r.name.hostname : d;
  })
  .describe("Domain or host name (IDN allowed); its registrable domain is derived with the Public Suffix List");

/** A host name of at least two labels (IDN allowed), registrable or not, passed on as its checked ASCII form. */
export const hostName = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .superRefine((d, ctx) => {
    const r = checkDomainName(d);
    if (!r.ok) ctx.addIssue({ code: "custom", message: r.reason });
    else if (!r.name.includes(".")) ctx.addIssue({ code: "custom", message: "A host name needs at least two labels." });
  })
  .transform((d) => {
    const r = checkDomainName(d);
    return r.ok ? r.name : d;
  })
  .describe("Host name (IDN allowed)");
