// zod schemas of network values, shared by the domain modules and the routers.
import { z } from "zod";
import { parseIpStrict } from "./ip";

/** An IPv4 or IPv6 address in its usual text form; anything else is 400 before any unit is reserved. */
export const ipAddress = z
  .string()
  .trim()
  .refine((s) => parseIpStrict(s) !== null, { message: "must be a valid IPv4 or IPv6 address" });
