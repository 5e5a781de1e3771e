// What several procedures of the hosts router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { looseIpv4Problem, parseWrittenHostAndPort, spellsNonPublicIpv4 } from "../../../net";

export const hostInput = z.object({
  host: z
    .string()
    .trim()
    .min(1)
    .max(300)
    // Judged as written, as /domain/{domain}, /blocklists/check and monitors' targets judge a host: "134744072" or
    // "1.1" is no host, never looked up as the address (8.8.8.8, 1.0.0.1) a URL parser reads in it.
    // A spelling of a private or loopback address ("0x7f.1") passes on to the SSRF guard, which refuses it before
    // admission with 400 TARGET_FORBIDDEN, as every spelling of a private target.
    .superRefine((h, ctx) => {
      if (parseWrittenHostAndPort(h) || spellsNonPublicIpv4(h)) return;
      ctx.addIssue({
        code: "custom",
        message: looseIpv4Problem(h) ?? "must be a host name or IP address, optionally with :port (IPv6 in brackets)",
      });
    })
    .describe(
      "Host name or IP address, optionally with :port (default 443); IPv6 in brackets when a port is given. An IPv4 address is written as a dotted quad: other spellings a URL parser reads as one (`134744072`, `0x08080808`, `1.1`) are 400 INVALID_REQUEST, or 400 TARGET_FORBIDDEN when the address they spell is not public (`0x7f.1`)",
    ),
});

export const SSRF_NOTE =
  "The target must be on the public internet: a special-use name (`localhost`, `.internal`, `.test` and the others below) is 404 DOMAIN_NOT_FOUND first, free, with no resolver asked; any other host that is, or resolves to, a loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved or cloud-metadata address (in any spelling, IPv4-mapped IPv6 included) is refused with 400 TARGET_FORBIDDEN before any unit is reserved. Redirects are vetted hop by hop; a redirect to a forbidden address is not followed and is reported in the answer (the unit counts).";
