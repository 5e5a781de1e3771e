// zod contracts of the RDAP summaries.
import { z } from "zod";

export const rdapEventSchema = z.object({ action: z.string(), date: z.string(), actor: z.string().nullable() });
export const abuseContactSchema = z
  .object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() })
  .nullable();
export const rdapSourceSchema = z.object({
  rdapServer: z.string(),
  registry: z.string(),
  url: z.string(),
  fetchedAt: z.string(),
  bootstrap: z.object({ name: z.string(), publication: z.string().nullable() }).nullable(),
});

export const ipRdapSchema = z.object({
  ip: z.string(),
  handle: z.string().nullable(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  startAddress: z.string().nullable(),
  endAddress: z.string().nullable(),
  cidrs: z.array(z.string()),
  country: z.string().nullable(),
  parentHandle: z.string().nullable(),
  status: z.array(z.string()),
  registeredAt: z.string().nullable(),
  lastChangedAt: z.string().nullable(),
  events: z.array(rdapEventSchema),
  abuseContact: abuseContactSchema,
  registrant: z
    .object({ name: z.string().nullable(), kind: z.string().nullable(), country: z.string().nullable() })
    .nullable(),
  contacts: z.array(
    z.object({
      handle: z.string().nullable(),
      roles: z.array(z.string()),
      name: z.string().nullable(),
      kind: z.string().nullable(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      country: z.string().nullable(),
    }),
  ),
  source: rdapSourceSchema,
});

export const domainRdapSchema = z.object({
  domain: z.string().describe("The registrable domain that was looked up"),
  ldhName: z.string().nullable(),
  unicodeName: z.string().nullable(),
  handle: z.string().nullable(),
  registrar: z
    .object({
      name: z.string().nullable(),
      ianaId: z.string().nullable(),
      abuseEmail: z.string().nullable(),
      abusePhone: z.string().nullable(),
    })
    .nullable(),
  status: z.array(z.string()),
  events: z.array(rdapEventSchema),
  registeredAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  lastChangedAt: z.string().nullable(),
  ageDays: z.number().int().nullable(),
  nameservers: z.array(z.string()),
  dnssecSigned: z.boolean().nullable(),
  abuseContact: abuseContactSchema,
  source: rdapSourceSchema,
});

export const autnumRdapSchema = z.object({
  handle: z.string().nullable(),
  name: z.string().nullable(),
  holder: z.string().nullable(),
  country: z.string().nullable(),
  registeredAt: z.string().nullable(),
  lastChangedAt: z.string().nullable(),
  events: z.array(rdapEventSchema),
  abuseContact: abuseContactSchema,
  source: rdapSourceSchema,
});
