// The domain risk score: additive signals, each with the weight it added and a reason a person can read, capped
// at 100. Missing evidence adds nothing: a score never rises because a source was down.
import { riskLevel } from "../email/schemas";
import type { DomainIntel, RiskReason } from "./schemas";

type Evidence = Pick<
  DomainIntel,
  | "exists"
  | "registration"
  | "dns"
  | "emailAuthentication"
  | "disposable"
  | "freeEmailProvider"
  | "blocklists"
  | "knownSuffix"
>;

const HOLD = /(client|server)hold/i;
const DELETING = /pendingdelete|redemptionperiod/i;

export function scoreDomain(e: Evidence): DomainIntel["risk"] {
  const reasons: RiskReason[] = [];
  const add = (signal: string, weight: number, reason: string) => reasons.push({ signal, weight, reason });

  if (e.exists === false) add("domain_not_found", 40, "The domain does not exist in DNS (NXDOMAIN).");
  if (e.disposable) add("disposable", 50, "The domain belongs to a disposable (throwaway) email service.");
  if (e.blocklists && e.blocklists.listedOn.length > 0) {
    add("blocklisted", 45, `Listed on ${e.blocklists.listedOn.join(", ")}.`);
  }
  const age = e.registration?.ageDays ?? null;
  if (age !== null && age < 30) add("newly_registered", 35, `Registered ${age} days ago.`);
  else if (age !== null && age < 180) add("recently_registered", 15, `Registered ${age} days ago (under six months).`);
  const status = e.registration?.status ?? [];
  if (status.some((s) => HOLD.test(s.replace(/\s+/g, ""))))
    add("registry_hold", 25, "The registry or registrar has put the domain on hold.");
  if (status.some((s) => DELETING.test(s.replace(/\s+/g, ""))))
    add("pending_deletion", 20, "The registration is expiring or being deleted.");
  if (e.dns && e.exists !== false && e.dns.a.length === 0 && e.dns.aaaa.length === 0 && e.dns.mx.length === 0) {
    add("no_service_records", 10, "The domain has no A, AAAA or MX records: it serves neither web nor mail.");
  }
  if (e.emailAuthentication?.overall === "fail")
    add("email_auth_fail", 10, `Email authentication fails: ${e.emailAuthentication.reason}`);
  if (!e.knownSuffix) add("unknown_suffix", 10, "The top-level domain is not on the Public Suffix List.");
  if (e.freeEmailProvider)
    add("free_email_provider", 0, "A free email provider: common for consumers, neutral on its own.");

  const score = Math.min(
    100,
    reasons.reduce((s, r) => s + r.weight, 0),
  );
  return { score, level: riskLevel(score), reasons };
}
