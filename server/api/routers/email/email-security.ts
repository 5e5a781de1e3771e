// GET /email/security: SPF, DKIM and DMARC posture, and mail transport security (MTA-STS, TLS-RPT, DANE, BIMI).
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { checkDomainName, isHostName } from "../../../dns/names";
import { getEmailSecurityOrThrow } from "../../../email/security/posture";
import { DKIM_SELECTOR } from "../../../email/security/selector";
import { emailSecurityResultSchema, type EmailSecurityResult } from "../../../email/security/schemas";
import { meteredProcedure } from "../../trpc";

const hostDomain = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .superRefine((v, ctx) => {
    const c = checkDomainName(v);
    if (!c.ok) ctx.addIssue({ code: "custom", message: c.reason });
    else if (!isHostName(c.name))
      ctx.addIssue({ code: "custom", message: "must be a host name with at least two labels and no underscores" });
  })
  .transform((v) => (checkDomainName(v) as { name: string }).name);

const selectorList = z
  .string()
  .trim()
  .max(400)
  .optional()
  .transform((v) =>
    v
      ? v
          .split(",")
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean)
      : [],
  )
  .refine((l) => l.length <= 10 && l.every((s) => DKIM_SELECTOR.test(s)), {
    message: "up to 10 comma-separated DKIM selectors (letters, digits, hyphens, underscores, dots)",
  });

export const emailSecurityProcedure = meteredProcedure({
  capability: "full",
  endpoint: "email.security",
  input: z.object({
    domain: hostDomain.describe("The domain whose mail authentication to check"),
    selectors: selectorList.describe("Extra DKIM selectors to check besides the common ones, comma-separated"),
  }),
  // A special-use name publishes no mail policy any public resolver would serve: answered free.
  decides: { publicName: (input) => input.domain },
  history: (input, out: EmailSecurityResult) => ({
    target: input.domain,
    summary: { overall: out.overall.status, spf: out.spf.status, dmarc: out.dmarc.status, dkim: out.dkim.status },
  }),
})
  .meta({
    openapi: {
      method: "GET",
      path: "/email/security",
      tags: ["Email"],
      summary: "SPF, DKIM and DMARC posture",
      description:
        "SPF parsed into mechanisms and modifiers, with the DNS-lookup count across include: and redirect= against the RFC 7208 limit of 10 and the effective `all` qualifier; DMARC policy, subdomain policy, pct and reporting addresses (inherited from the organizational domain when the name has none); DKIM keys at common selectors (and any given in `selectors`) with key type and size. Mail transport security: MTA-STS (RFC 8461; the _mta-sts TXT record and the policy fetched from https://mta-sts.<domain>/.well-known/mta-sts.txt with a verified certificate, no redirects, 64 KB at most and only from a public internet address; its mode and whether its mx patterns cover every MX host), TLS-RPT (RFC 8460; the _smtp._tls record and its reporting addresses), DANE (RFC 7672; TLSA records at _25._tcp.<mx> for up to 10 MX hosts; this service does not validate DNSSEC itself, so records without the resolver's AD bit are reported as unverifiable) and BIMI (the default._bimi record, its logo and evidence URLs, never fetched, judged with the DMARC policy). Absent transport protections are warn with what to publish, and do not lower `overall`; a misconfigured one is fail and does. Each check is pass, warn or fail with a reason a person can act on, or unknown when its DNS lookups failed; 503 UPSTREAM_UNAVAILABLE only when no check could be made, or when the resolver answers that a well-known domain (the shipped free-mail and top-site lists) does not exist, which says the resolver is broken (its unit is given back).",
    },
  })
  .output(emailSecurityResultSchema)
  .query(({ input }) => getEmailSecurityOrThrow({ domain: input.domain, selectors: input.selectors }));
