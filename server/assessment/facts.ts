// The facts of one assessment in the rule language's names (server/rules/facts.ts): what the rules evaluate now and
// what a backtest evaluates later, stored with the assessment event so nothing upstream is asked again.
import { compactFacts, type Facts } from "../rules/facts";
import type { DeviceEvidence } from "./device-evidence";
import type { EmailEvidence } from "./email-evidence";
import type { IpEvidence } from "./ip-evidence";
import type { PhoneEvidence } from "./phone-evidence";
import type { AssessRequest, RiskLevel, Signal } from "./schemas";

export function assessmentFacts(a: {
  request: AssessRequest;
  ip: IpEvidence;
  email: EmailEvidence | null;
  /** The request's phone as read (./phone-evidence.ts); absent or null without one. */
  phone?: PhoneEvidence["phone"];
  device: DeviceEvidence;
  velocity: Facts;
  score: number;
  riskLevel: RiskLevel;
  signals: readonly Signal[];
}): Facts {
  const { request: req, ip, email, device, phone } = a;
  const p = ip.ip.privacy;
  return compactFacts({
    event: req.event,
    billing_country: req.billing_country,
    password_compromised: req.password_compromised,
    amount: req.amount,
    currency: req.currency,
    user_agent: req.user_agent,
    device_id: req.device_id ?? device.device?.device_id,
    user_id: req.user_id,
    score: a.score,
    risk_level: a.riskLevel,
    signals: a.signals.map((s) => s.code),
    "ip.address": ip.ip.address,
    "ip.scope": ip.ip.scope,
    "ip.country": ip.ip.country,
    "ip.asn": ip.ip.asn,
    "ip.network_type": ip.ip.network_type,
    "ip.tor_exit": ip.ip.tor_exit,
    "ip.vpn": p.vpn,
    "ip.vpn_provider": p.classes.vpn.provider,
    "ip.private_relay": p.relay,
    "ip.hosting": ip.ip.hosting,
    "ip.hosting_provider": p.classes.hosting.provider,
    "ip.scanner": p.scanner,
    "ip.scanner_org": p.classes.scanner.provider,
    "ip.privacy_confidence": p.confidence,
    "ip.crawler": p.crawler,
    "ip.service": p.service,
    "ip.lists": ip.lists,
    "email.address": email?.email.address,
    "email.normalized": email?.email.normalized,
    "email.subaddressed": email?.email.subaddressed,
    "phone.valid": phone?.valid,
    "phone.type": phone?.type,
    "phone.country": phone?.country,
    "phone.country_matches_ip": phone?.country_matches_ip,
    "email.domain": email?.email.domain,
    "email.disposable": email?.email.disposable,
    "email.free_provider": email?.email.free_provider,
    "email.role_account": email?.email.role_account,
    "email.mx": email?.email.mx,
    "device.verdict": device.device?.verdict,
    "device.risk_score": device.device?.risk_score,
    "device.timezone_mismatch": device.timezoneMismatch,
    "device.language_mismatch": device.languageMismatch,
    ...a.velocity,
  });
}
