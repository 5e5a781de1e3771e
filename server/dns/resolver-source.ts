// How an answer names the resolver it came from: the same shape in every DNS-backed answer (dns, email, blocklists).
import { z } from "zod";
import type { DnsQueryResult } from "../providers/dns";

export const resolverSourceSchema = z.object({
  servers: z
    .array(z.string())
    .describe("Recursive resolvers configured (SERVICE_DNS_SERVERS, default the system resolvers), in the order tried"),
  answeredBy: z
    .string()
    .nullable()
    .describe("The resolver whose answer was used (for SERVFAIL, the last one that said so); null when none answered"),
  transport: z.enum(["udp", "tcp"]).nullable(),
  durationMs: z.number().int(),
});
export type ResolverSource = z.infer<typeof resolverSourceSchema>;

export function resolverSource(r: DnsQueryResult): ResolverSource {
  const last = r.attempts[r.attempts.length - 1];
  const answeredBy = r.server ?? (r.status === "SERVFAIL" && last ? last.server : null);
  return {
    servers: r.servers,
    answeredBy,
    transport: answeredBy ? (last?.transport ?? null) : null,
    durationMs: r.durationMs,
  };
}
