// A sender's posture: SPF, DKIM at the sender's selectors, DMARC and the mail transport parts (the /email/security
// checks) and whether the domain is on a DNS blocklist. Unmetered: this is the sender slot's own service, not a lookup.
import { checkTarget } from "../blocklists/check";
import { parseTarget } from "../blocklists/targets";
import { checkDkim, parseDkimKey } from "../email/security/dkim";
import { checkDmarc } from "../email/security/dmarc";
import { checkSpf } from "../email/security/spf-check";
import { checkMailTransport } from "../email/security/transport";
import { worst, type CheckStatus } from "../email/security/verdict";
import { queryDns } from "../providers/dns";
import type { SenderPosture } from "./schemas";

/** DKIM at exactly the selectors the owner named; without any, the common selectors of /email/security. */
async function checkSelectors(domain: string, selectors: string[]): Promise<SenderPosture["dkim"]> {
  if (selectors.length === 0) {
    const d = await checkDkim(domain);
    return { status: d.status, reason: d.reason, selectors: d.keys.map((k) => k.selector) };
  }
  const found = await Promise.all(
    selectors.map(async (selector) => {
      const name = `${selector}._domainkey.${domain}`;
      const q = await queryDns(name, "TXT");
      const texts = q.records
        .filter((r) => r.type === "TXT")
        .map((r) => (r.data && "strings" in r.data ? r.data.strings.join("") : r.value));
      const rec = texts.find((t) => /(^|;)\s*(v=DKIM1|p=|k=)/i.test(t));
      const answered = q.status === "NOERROR" || q.status === "NODATA" || q.status === "NXDOMAIN";
      return { selector, answered, key: rec ? parseDkimKey(selector, name, rec) : null };
    }),
  );
  const base = { selectors };
  const unanswered = found.filter((f) => !f.key && !f.answered).map((f) => f.selector);
  const missing = found.filter((f) => !f.key && f.answered).map((f) => f.selector);
  const broken = found.filter((f) => f.key && (f.key.revoked || f.key.error)).map((f) => f.selector);
  if (missing.length || broken.length) {
    const bad = [...missing, ...broken];
    return {
      ...base,
      status: "fail",
      reason: `No usable DKIM key at selector${bad.length > 1 ? "s" : ""} ${bad.join(", ")}: mail signed with ${bad.length > 1 ? "them" : "it"} fails DKIM.`,
    };
  }
  if (unanswered.length)
    return {
      ...base,
      status: "unknown",
      reason: `The DKIM lookup of ${unanswered.join(", ")} got no answer; it is checked again tomorrow.`,
    };
  const keys = found.map((f) => f.key!);
  const weak = keys.find((k) => k.keyType === "rsa" && k.keyBits !== null && k.keyBits < 1024);
  if (weak)
    return {
      ...base,
      status: "fail",
      reason: `Selector ${weak.selector} has a ${weak.keyBits}-bit RSA key, which receivers ignore. Rotate to 2048 bits.`,
    };
  const short = keys.find((k) => k.keyType === "rsa" && k.keyBits !== null && k.keyBits < 2048);
  if (short)
    return {
      ...base,
      status: "warn",
      reason: `Selector ${short.selector} has a ${short.keyBits}-bit RSA key. Rotate to 2048 bits.`,
    };
  const testing = keys.find((k) => k.testing);
  if (testing)
    return {
      ...base,
      status: "warn",
      reason: `Selector ${testing.selector} is in testing mode (t=y): receivers treat its mail as unsigned.`,
    };
  return { ...base, status: "pass", reason: `DKIM key${keys.length > 1 ? "s" : ""} found at ${selectors.join(", ")}.` };
}

/** The domain against the configured domain blocklists (SERVICE_DNSBL_DOMAIN_ZONES), as /blocklists/check does. */
async function checkBlocklistTarget(domain: string): Promise<SenderPosture["blocklists"]> {
  const target = parseTarget(domain);
  if ("error" in target) return { status: "incomplete", listed_on: [], reason: target.error };
  const r = await checkTarget(target);
  const reason =
    r.status === "listed"
      ? `Listed on ${r.listedOn.join(", ")}: receivers using ${r.listedOn.length > 1 ? "these lists" : "this list"} may reject or junk its mail. Look up the listing and ask for removal.`
      : r.status === "not_listed"
        ? `Not listed on ${r.lists.length} blocklist${r.lists.length === 1 ? "" : "s"}.`
        : "Not listed where an answer came, but some blocklists did not answer; checked again tomorrow.";
  return { status: r.status, listed_on: r.listedOn, reason };
}

const BLOCKLIST_STATUS: Record<SenderPosture["blocklists"]["status"], CheckStatus> = {
  listed: "fail",
  incomplete: "unknown",
  not_listed: "pass",
};

export async function checkSenderPosture(
  domain: string,
  selectors: string[],
  now = new Date(),
): Promise<SenderPosture> {
  const dmarcP = checkDmarc(domain);
  const enforced = dmarcP.then(({ dmarc }) => dmarc.policy === "quarantine" || dmarc.policy === "reject");
  const [{ spf }, { dmarc }, dkim, blocklists, t] = await Promise.all([
    checkSpf(domain, enforced),
    dmarcP,
    checkSelectors(domain, selectors),
    checkBlocklistTarget(domain),
    checkMailTransport(
      domain,
      dmarcP.then((d) => d.dmarc),
    ),
  ]);
  const part = (c: { status: CheckStatus; reason: string }) => ({ status: c.status, reason: c.reason });
  const transport = { mta_sts: part(t.mtaSts), tls_rpt: part(t.tlsRpt), dane: part(t.dane), bimi: part(t.bimi) };
  // As in /email/security: a missing optional protection (warn) leaves the verdict alone, a misconfiguration counts.
  const transportFails = Object.values(transport).some((c) => c.status === "fail") ? ["fail" as const] : [];
  return {
    overall: worst([spf.status, dkim.status, dmarc.status, BLOCKLIST_STATUS[blocklists.status], ...transportFails]),
    spf: { status: spf.status, reason: spf.reason },
    dkim,
    dmarc: { status: dmarc.status, reason: dmarc.reason, policy: dmarc.policy },
    ...transport,
    blocklists,
    checked_at: now.toISOString(),
  };
}

/**
 * What counts as a change of posture: each check's verdict, the DMARC policy and the lists naming the domain.
 * Reasons are left out (same verdict, other wording). A check that could not run (unknown, incomplete) keeps its
 * last known verdict, so a resolver's bad day is not a change, and neither is the day after it.
 */
export interface KnownVerdicts {
  spf: string | null;
  dkim: string | null;
  dmarc: string | null;
  dmarc_policy: string | null;
  blocklists: string | null;
  listed_on: string[] | null;
  /** MTA-STS, TLS-RPT, DANE and BIMI; absent in verdicts stored before they were checked. */
  transport?: Record<TransportKey, string | null>;
}

const TRANSPORT_KEYS = ["mta_sts", "tls_rpt", "dane", "bimi"] as const;
type TransportKey = (typeof TRANSPORT_KEYS)[number];

export function knownVerdicts(prev: KnownVerdicts | null, p: SenderPosture): KnownVerdicts {
  const keep = <T>(prevValue: T | null | undefined, next: T, unknown: boolean): T | null =>
    unknown ? (prevValue ?? null) : next;
  return {
    spf: keep(prev?.spf, p.spf.status, p.spf.status === "unknown"),
    dkim: keep(prev?.dkim, p.dkim.status, p.dkim.status === "unknown"),
    dmarc: keep(prev?.dmarc, p.dmarc.status, p.dmarc.status === "unknown"),
    dmarc_policy: keep(prev?.dmarc_policy, p.dmarc.policy, p.dmarc.status === "unknown"),
    blocklists: keep(prev?.blocklists, p.blocklists.status, p.blocklists.status === "incomplete"),
    listed_on: keep(prev?.listed_on, [...p.blocklists.listed_on].sort(), p.blocklists.status === "incomplete"),
    transport: Object.fromEntries(
      TRANSPORT_KEYS.map((k) => [k, keep(prev?.transport?.[k], p[k]?.status ?? null, p[k]?.status === "unknown")]),
    ) as Record<TransportKey, string | null>,
  };
}

/** True when a known verdict moved; the first check (no earlier verdicts) is not a change. */
export function postureChanged(prev: KnownVerdicts | null, next: KnownVerdicts): boolean {
  // Compared field by field in a fixed order: the database (jsonb) does not keep the keys' order.
  // The transport verdicts count once a check has recorded them: their first appearance is not a change.
  const flat = (v: KnownVerdicts, transport: boolean) =>
    JSON.stringify([
      v.spf,
      v.dkim,
      v.dmarc,
      v.dmarc_policy,
      v.blocklists,
      v.listed_on,
      ...(transport ? TRANSPORT_KEYS.map((k) => v.transport?.[k] ?? null) : []),
    ]);
  const withTransport = prev?.transport !== undefined;
  return prev !== null && flat(prev, withTransport) !== flat(next, withTransport);
}
