// What several procedures of the hosts router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { parseHostAndPort } from "../../../net";

export const hostInput = z.object({
  host: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .refine((h) => parseHostAndPort(h) !== null, {
      message: "must be a host name or IP address, optionally with :port (IPv6 in brackets)",
    })
    .describe("Host name or IP address, optionally with :port (default 443); IPv6 in brackets when a port is given"),
});

export const SSRF_NOTE =
  "The target must be on the public internet: a special-use name (`localhost`, `.internal`, `.test` and the others below) is 404 DOMAIN_NOT_FOUND first, free, with no resolver asked; any other host that is, or resolves to, a loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved or cloud-metadata address (in any spelling, IPv4-mapped IPv6 included) is refused with 400 TARGET_FORBIDDEN before any unit is reserved. Redirects are vetted hop by hop; a redirect to a forbidden address is not followed and is reported in the answer (the unit counts).";
