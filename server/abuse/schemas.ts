// Answers of the abuse-contact routes.
import { z } from "zod";

const contact = z
  .object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    handle: z.string().nullable(),
  })
  .nullable()
  .describe(
    "The abuse mailbox and phone from the RDAP entity with the abuse role; null when the registry publishes none (see reason)",
  );

const source = z.object({ rdap_server: z.string(), registry: z.string(), url: z.string(), fetched_at: z.string() });

const common = {
  abuse: contact,
  reason: z.string().nullable().describe("Why abuse is null; null when a contact was found"),
  followed_links: z
    .array(z.string())
    .describe("Entity URLs fetched because the registry published the abuse entity by reference"),
  source,
  checked_at: z.string(),
};

export const ipAbuseSchema = z.object({
  ip: z.string(),
  ...common,
  network: z.object({
    handle: z.string().nullable(),
    name: z.string().nullable(),
    start_address: z.string().nullable(),
    end_address: z.string().nullable(),
    country: z.string().nullable(),
    organization: z.string().nullable(),
  }),
});

export const domainAbuseSchema = z.object({
  domain: z.string().describe("The registrable domain looked up"),
  ...common,
  registrar: z.object({ name: z.string().nullable(), iana_id: z.string().nullable() }).nullable(),
});

export type IpAbuse = z.infer<typeof ipAbuseSchema>;
export type DomainAbuse = z.infer<typeof domainAbuseSchema>;
