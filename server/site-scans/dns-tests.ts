// The DNS and mail part of a scan: CAA (climbing from the host to its registrable domain, as CAs do per RFC 8659),
// DNSSEC (the AD bit of a validating resolver) and the domain's SPF and DMARC (the /email/security checks).
import { isIP } from "node:net";
import { checkDmarc } from "../email/security/dmarc";
import { checkSpf } from "../email/security/spf-check";
import { getRegistrableDomain } from "../feeds/public-suffix";
import { isAnswered, queryDns } from "../providers/dns";
import type { Verdict } from "./header-tests";

export type DnsVerdicts = { caa: Verdict; dnssec: Verdict; spf: Verdict; dmarc: Verdict; domain: string | null };

function namesUpTo(host: string, apex: string): string[] {
  const labels = host.split(".");
  const out: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    const name = labels.slice(i).join(".");
    out.push(name);
    if (name === apex) break;
  }
  return out;
}

async function testCaa(host: string, apex: string): Promise<Verdict> {
  for (const name of namesUpTo(host, apex)) {
    const r = await queryDns(name, "CAA");
    if (!isAnswered(r)) return { result: "caa-unknown", detail: `${name}: ${r.status}` };
    const caa = r.records.filter((x) => x.type === "CAA");
    if (caa.length > 0)
      return { result: "caa-implemented", detail: `${name}: ${caa.map((x) => x.value).join("; ")}`.slice(0, 300) };
  }
  return { result: "caa-not-implemented", detail: null };
}

async function testDnssec(apex: string): Promise<Verdict> {
  const r = await queryDns(apex, "SOA", { askAuthenticated: true });
  if (!isAnswered(r)) return { result: "dnssec-unknown", detail: r.status };
  return r.authenticated
    ? { result: "dnssec-signed", detail: `AD bit from ${r.server}` }
    : { result: "dnssec-not-signed", detail: null };
}

async function testMail(domain: string): Promise<{ spf: Verdict; dmarc: Verdict }> {
  const dmarcP = checkDmarc(domain);
  const enforced = dmarcP.then(({ dmarc }) => dmarc.policy === "quarantine" || dmarc.policy === "reject");
  const [{ spf }, { dmarc }] = await Promise.all([checkSpf(domain, enforced), dmarcP]);
  const spfResult =
    spf.status === "unknown"
      ? "spf-unknown"
      : spf.record === null
        ? "spf-missing"
        : spf.status === "pass" || (spf.status === "warn" && spf.allQualifier === "~")
          ? "spf-pass"
          : "spf-weak";
  const dmarcResult =
    dmarc.status === "unknown"
      ? "dmarc-unknown"
      : dmarc.record === null || dmarc.policy === null
        ? "dmarc-missing"
        : dmarc.policy === "none"
          ? "dmarc-not-enforced"
          : "dmarc-enforced";
  return {
    spf: { result: spfResult, detail: spf.record ?? spf.reason },
    dmarc: { result: dmarcResult, detail: dmarc.record ?? dmarc.reason },
  };
}

export async function runDnsTests(host: string): Promise<DnsVerdicts> {
  const apex = isIP(host) ? null : getRegistrableDomain(host);
  if (!apex) {
    const na = (prefix: string) => ({
      result: `${prefix}-unknown`,
      detail: "The target is an IP address or has no registrable domain.",
    });
    return { caa: na("caa"), dnssec: na("dnssec"), spf: na("spf"), dmarc: na("dmarc"), domain: null };
  }
  const [caa, dnssec, mail] = await Promise.all([testCaa(host, apex), testDnssec(apex), testMail(apex)]);
  return { caa, dnssec, ...mail, domain: apex };
}
