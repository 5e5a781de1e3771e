// MTA-STS (RFC 8461): without it, a sender falls back to plaintext when an attacker strips STARTTLS. The TXT record at
// _mta-sts.<domain> announces a policy that senders fetch over verified HTTPS from mta-sts.<domain>; the policy's mx
// patterns must cover every MX host, or enforcing senders refuse to deliver. The fetch goes through the SSRF guard
// (the host name is the checked domain's, so user-supplied), follows no redirect (section 3.3), reads 64 KB at most
// and is bounded by the target timeout (SERVICE_TARGET_TIMEOUT_MS, by default the upstream timeout).
import { AppError } from "../../errors";
import { setting } from "../../env";
import { safeFetch, type SafeFetchResult } from "../../net";
import { parseMtaStsPolicy, uncoveredMx, type MtaStsMode } from "./mta-sts-policy";
import { fetchPolicyTxt } from "./txt";
import type { CheckStatus } from "./verdict";

export interface MtaStsCheck {
  status: CheckStatus;
  reason: string;
  present: boolean;
  record: string | null;
  id: string | null;
  policyUrl: string | null;
  mode: MtaStsMode | null;
  maxAge: number | null;
  mxPatterns: string[];
  mxNotCovered: string[];
  errors: string[];
}

const STS_TAG = /^v=STSv1\s*(;|$)/i;
const POLICY_MAX_BYTES = 65_536;

export async function checkMtaSts(domain: string, mx: string[] | null): Promise<MtaStsCheck> {
  const name = `_mta-sts.${domain}`;
  const txt = await fetchPolicyTxt(name, STS_TAG);
  const base: MtaStsCheck = {
    status: "fail",
    reason: "",
    present: txt.matches.length > 0,
    record: txt.matches.join(" | ") || null,
    id: null,
    policyUrl: null,
    mode: null,
    maxAge: null,
    mxPatterns: [],
    mxNotCovered: [],
    errors: [],
  };
  const out = (d: Partial<MtaStsCheck> & { status: CheckStatus; reason: string }) => ({ ...base, ...d });
  if (!txt.answered)
    return out({ status: "unknown", reason: `The TXT lookup of ${name} failed (${txt.query.status}); retry later.` });
  if (txt.matches.length === 0)
    return out({
      status: "warn",
      reason: `No MTA-STS policy: senders may deliver over plaintext if STARTTLS is stripped. Publish "v=STSv1; id=20260101T000000" at ${name} and a policy (mode: testing first, then enforce) at https://mta-sts.${domain}/.well-known/mta-sts.txt (RFC 8461).`,
    });
  if (txt.matches.length > 1)
    return out({
      status: "fail",
      reason: `More than one MTA-STS record at ${name}: senders ignore them all (RFC 8461 3.1). Keep one.`,
    });
  const id = /(?:^|;)\s*id=([A-Za-z0-9]{1,32})\s*(;|$)/.exec(txt.matches[0])?.[1] ?? null;
  base.id = id;
  if (!id)
    return out({
      status: "fail",
      reason: "The TXT record has no valid id= (1 to 32 letters and digits): senders ignore it.",
    });

  const port = setting("SERVICE_MTA_STS_PORT");
  const policyUrl = `https://mta-sts.${domain}${port === 443 ? "" : `:${port}`}/.well-known/mta-sts.txt`;
  base.policyUrl = policyUrl;
  let res: SafeFetchResult;
  try {
    res = await safeFetch(policyUrl, { maxRedirects: 0, maxBytes: POLICY_MAX_BYTES });
  } catch (err) {
    if (!(err instanceof AppError) || err.appCode !== "TARGET_FORBIDDEN") throw err;
    return out({
      status: "fail",
      reason: `The policy was not fetched: mta-sts.${domain} is not a public internet host. ${err.message}`,
    });
  }
  const unusable = fetchProblem(res, domain);
  if (unusable) return out({ status: "fail", reason: `The TXT record announces a policy, but ${unusable}` });

  const policy = parseMtaStsPolicy(res.body.toString("utf8"));
  Object.assign(base, { mode: policy.mode, maxAge: policy.maxAge, mxPatterns: policy.mxPatterns });
  if (policy.errors.length)
    return out({
      status: "fail",
      errors: policy.errors,
      reason: `The policy is invalid, so senders ignore it: ${policy.errors.join(" ")}`,
    });
  const notCovered = mx ? uncoveredMx(policy.mxPatterns, mx) : [];
  base.mxNotCovered = notCovered;
  const uncovered = `MX hosts ${notCovered.join(", ")} match no mx: pattern of the policy`;
  if (policy.mode === "none")
    return out({
      status: "warn",
      reason: "mode: none withdraws the policy: senders apply no MTA-STS. Publish mode: testing, then enforce.",
    });
  if (policy.mode === "testing")
    return out({
      status: "warn",
      reason: `mode: testing only reports TLS failures (TLS-RPT); mail is still delivered without verified TLS. ${notCovered.length ? `${uncovered}: add them before enforcing. ` : ""}Move to mode: enforce once the reports are clean.`,
    });
  if (notCovered.length)
    return out({
      status: "fail",
      reason: `mode: enforce, but ${uncovered}: senders that enforce the policy refuse to deliver to them.`,
    });
  if (!mx)
    return out({
      status: "unknown",
      reason: "mode: enforce, but the MX lookup failed, so whether the mx patterns cover every MX host is unknown.",
    });
  return out({
    status: "pass",
    reason: `MTA-STS is enforced: senders deliver only over verified TLS to ${policy.mxPatterns.join(", ")}.`,
  });
}

/** Why the fetched policy cannot be used (RFC 8461 3.3), or null. */
function fetchProblem(res: SafeFetchResult, domain: string): string | null {
  const host = `mta-sts.${domain}`;
  if (res.error?.kind === "dns")
    return res.dnsNotFound ? `${host} does not resolve.` : `${host} could not be resolved (${res.error.message}).`;
  if (res.error?.kind === "tls")
    return `the HTTPS certificate of ${host} does not verify (${res.error.message}); senders refuse the policy.`;
  if (res.error) return `${host} could not be reached: ${res.error.message}.`;
  if (res.outcome === "too_many_redirects")
    return `${host} answered with a redirect (HTTP ${res.status}), which senders do not follow (RFC 8461 3.3).`;
  if (res.status !== 200) return `${host} answered HTTP ${res.status} for the policy.`;
  if (res.truncated) return `the policy is larger than ${POLICY_MAX_BYTES / 1024} KB.`;
  const type = (res.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "text/plain") return `the policy is served as "${type || "no type"}", not text/plain (RFC 8461 3.2).`;
  return null;
}
