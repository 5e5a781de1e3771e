// Summary cards for email, domain, TLS and DNS answers: the verdict first, in words and badges.
import { dnsStatusShort } from "../../../../server/dns/status-words";
import { Flag } from "../Flag";
import { AbuseContact } from "./AbuseContact";
import { formatUtc } from "../format";
import { Facts, type Json, Reasons, RiskBadge, Why } from "./parts";

/** An email check's mail-server status in words (the email card, and a bulk job's email results). */
export const MX_TEXT: Record<string, string> = {
  present: "mail servers found",
  null_mx: "the domain refuses all mail (null MX)",
  implicit: "no MX, mail goes to the domain's address",
  absent: "no mail server",
  domain_not_found: "the domain does not exist",
  unavailable: "could not be checked",
};

export function EmailCard({ v }: { v: Json }) {
  return (
    <div className="card answer-card" data-testid="answer-card" data-kind="email">
      <h3 className="answer-title">
        <code>{v.email}</code> <RiskBadge level={v.riskLevel} score={v.score} />
      </h3>
      <p className="flags" data-testid="email-verdicts">
        <Flag label="Valid syntax" value={v.syntax?.valid} badWhen={false} />
        <Flag label="Accepts mail" value={v.mx?.acceptsMail} badWhen={false} />
        <Flag label="Disposable" value={v.disposable} badWhen={true} testId="flag-disposable" />
        <Flag label="Free provider" value={v.freeProvider} badWhen="never" />
        <Flag label="Role account" value={v.roleAccount} badWhen="never" />
      </p>
      <Facts
        rows={[
          ["Mail servers", v.mx ? (MX_TEXT[v.mx.status] ?? v.mx.status) : null],
          ["Did you mean", v.suggestion],
          ["Normalised", v.normalized && v.normalized !== v.email ? v.normalized : null],
        ]}
      />
      <Reasons items={v.reasons ?? []} />
      <Why text={v.syntax?.valid === false ? v.syntax.reason : null} />
    </div>
  );
}

function age(days: unknown): string | null {
  if (typeof days !== "number") return null;
  if (days < 60) return `${days} day${days === 1 ? "" : "s"}`;
  if (days < 730) return `${Math.floor(days / 30)} months`;
  return `${Math.floor(days / 365)} years`;
}

export function DomainCard({ v }: { v: Json }) {
  const reg: Json | null = v.registration;
  const auth: Json | null = v.emailAuthentication;
  return (
    <div className="card answer-card" data-testid="answer-card" data-kind="domain">
      <h3 className="answer-title">
        <code>{v.domain}</code> <RiskBadge level={v.risk?.level} score={v.risk?.score} />
      </h3>
      <Facts
        rows={[
          ["Age", reg ? (age(reg.ageDays) ?? "unknown") : "unknown"],
          ["Registrar", reg?.registrar ?? "unknown"],
          ["Registered", reg?.createdAt ? formatUtc(reg.createdAt) : null],
          [
            "Mail posture",
            auth
              ? `overall ${auth.overall}: SPF ${auth.spf}, DMARC ${auth.dmarc}${auth.dmarcPolicy ? ` (policy ${auth.dmarcPolicy})` : ""}, DKIM ${auth.dkim}`
              : "not checked",
          ],
          [
            "Blocklists",
            v.blocklists
              ? v.blocklists.listedOn?.length
                ? `listed on ${v.blocklists.listedOn.join(", ")}`
                : `not listed (${v.blocklists.checked} checked)`
              : null,
          ],
        ]}
      />
      <p className="flags">
        <Flag label="Exists" value={v.exists} badWhen={false} />
        <Flag label="Disposable mail domain" value={v.disposable} badWhen={true} />
        <Flag label="Free mail provider" value={v.freeEmailProvider} badWhen="never" />
      </p>
      <Reasons items={v.risk?.reasons ?? []} />
      <Why text={v.registrationReason} />
      {typeof v.domain === "string" && v.exists !== false ? <AbuseContact kind="domain" target={v.domain} /> : null}
    </div>
  );
}

export function TlsCard({ v }: { v: Json }) {
  const c: Json | null = v.certificate;
  const chain =
    v.chainVerified === true
      ? "trusted chain"
      : v.chainVerified === false
        ? `chain not trusted${v.chainError ? ` (${v.chainError})` : ""}`
        : "chain not checked";
  return (
    <div className="card answer-card" data-testid="answer-card" data-kind="tls">
      <h3 className="answer-title">
        <code>
          {v.host}:{v.port}
        </code>{" "}
        <span className={`badge ${v.valid ? "risk-low" : "risk-critical"}`} data-testid="tls-verdict">
          {v.valid ? "valid certificate" : v.connected ? "certificate problem" : "no TLS connection"}
        </span>
      </h3>
      <Facts
        rows={[
          ["Days left", c ? <strong data-testid="tls-days-left">{c.daysLeft}</strong> : null],
          ["Chain", <span data-testid="tls-chain">{chain}</span>],
          ["Issuer", c?.issuer?.organization ?? c?.issuer?.commonName ?? null],
          ["Valid until", c?.validTo ? formatUtc(c.validTo) : null],
          ["Protocol", v.protocol],
          ["Connection", v.error ? v.error.message : null],
        ]}
      />
      <p className="flags">
        <Flag label="Trusted chain" value={v.chainVerified} badWhen={false} />
        <Flag label="Name matches" value={v.nameMatches} badWhen={false} />
        <Flag label="Expired" value={c?.expired} badWhen={true} />
        <Flag label="Self-signed" value={c?.selfSigned} badWhen={true} />
      </p>
      <Why text={v.chainErrorReason ?? v.nameMismatchReason} />
    </div>
  );
}

export function DnsCard({ v }: { v: Json }) {
  const records: Json[] = v.records ?? [];
  return (
    <div className="card answer-card" data-testid="answer-card" data-kind="dns">
      <h3 className="answer-title">
        <code>{v.queryName ?? v.domain}</code> {v.type}{" "}
        <span className="badge" data-testid="dns-status">
          {dnsStatusShort(String(v.status ?? ""))}
        </span>
      </h3>
      <p className="small" data-testid="dns-status-meaning">
        {v.statusMeaning} <span className="muted">(DNS status {v.status})</span>
      </p>
      {records.length ? (
        <div className="table-scroll">
          <table className="list" data-testid="dns-records">
            <thead>
              <tr>
                <th>Name</th>
                <th>Type</th>
                <th>TTL</th>
                <th>Value</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r, i) => (
                <tr key={i}>
                  <td className="break">{r.name}</td>
                  <td>{r.type}</td>
                  <td>{r.ttl}</td>
                  <td className="break">
                    <code>{r.value}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted small">No records of this type.</p>
      )}
    </div>
  );
}
