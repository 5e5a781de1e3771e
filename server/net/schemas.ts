// zod schemas of network values, shared by the domain modules and the routers.
import { z } from "zod";
import { canonicalAddress } from "./ip-parse";

/**
 * An IPv4 or IPv6 address in its usual text form; anything else is 400 before any unit is reserved. An IPv4-mapped
 * IPv6 address (`::ffff:185.220.101.75`, how a dual-stack socket reports every IPv4 client) is read as its IPv4
 * address, the same host: its evidence, location and counters are that address's (./ip-parse.ts unmappedAddress).
 */
export const ipAddress = z
  .string()
  .trim()
  .transform((s, ctx) => {
    // One parse checks the address and finds its one form. IPv6 goes on in RFC 5952 form: "2001:DB8:0:0:0:0:0:1" and
    // "2001:db8::1" are one host, asked of RDAP, recorded in history and answered alike.
    const address = canonicalAddress(s);
    if (address === null) {
      ctx.addIssue({ code: "custom", message: "must be a valid IPv4 or IPv6 address" });
      return z.NEVER;
    }
    return address;
  });
