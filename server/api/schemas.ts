// zod schemas shared by several routers.
import { z } from "zod";
import { parseIpStrict } from "../net/ip";

/** An IPv4 or IPv6 address in its usual text form; anything else is 400 before any unit is reserved. */
export const ipAddress = z
  .string()
  .trim()
  .refine((s) => parseIpStrict(s) !== null, { message: "must be a valid IPv4 or IPv6 address" });

export const errorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
