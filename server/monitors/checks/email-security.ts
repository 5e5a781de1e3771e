// email_security: the verdicts of the email security answer (SPF, DMARC, DKIM and whatever else it checks), the DMARC policy and the DKIM
// selectors that have keys. Runs GET /email/security (email.emailSecurity) with the monitor's extra selectors.
import type { EmailSecurityResult } from "../../email/security/schemas";
import { sorted, worst, type CheckSpec, type Severity } from "./types";

const SEVERITY: Record<string, Severity> = { pass: "ok", unknown: "ok", warn: "warning", fail: "critical" };

export const emailSecurityCheck: CheckSpec = {
  type: "email_security",
  about:
    "email_security: every verdict of the email security answer (SPF, DKIM at common selectors and `selectors`, DMARC and the rest), the DMARC policy and the DKIM selectors with keys",
  needsName: true,
  procedure: "email.emailSecurity",
  calls: (t, o) => [{ domain: t.host, selectors: (o.selectors ?? []).join(",") }],
  state([r]: EmailSecurityResult[]) {
    // Every verdict the answer holds (SPF, DMARC, DKIM and any other check it carries), then the facts behind
    // the two that change silently: the DMARC policy and the DKIM selectors with a usable key.
    const verdicts = Object.fromEntries(
      Object.entries(r!)
        .filter(([, v]) => typeof (v as { status?: unknown } | null)?.status === "string")
        .map(([k, v]) => [k, (v as { status: string }).status]),
    );
    const state = {
      ...verdicts,
      dmarc_policy: r!.dmarc.policy ?? null,
      dkim_selectors: sorted(r!.dkim.keys.filter((k) => !k.error && !k.revoked).map((k) => k.selector)),
    };
    // The answer's own summary decides how bad: an absent optional protection (a transport check's warn) does
    // not lower it, a misconfigured one does. Every verdict is still in the state, so any change alerts.
    return { state, severity: SEVERITY[r!.overall.status] ?? "ok" };
  },
};
