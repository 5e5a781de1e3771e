"use client";
// Any lookup result shown as an answer: a summary card for the kinds people read most (IP, geolocation, ASN, email,
// email security, domain, TLS, DNS), then the full structure behind "Details" and the raw JSON behind another
// toggle. A result of another kind opens with its details shown, since there is no summary to read first.
import type { ReactNode } from "react";
import { EmailSecurityCard } from "./answers/EmailSecurityCard";
import { AsnCard, IpCard, GeoCard } from "./answers/IpCards";
import { DnsCard, DomainCard, EmailCard, TlsCard } from "./answers/NameCards";
import type { Json } from "./answers/parts";
import { RawJson, StructureTree } from "./ResultView";
import { WATCH_CHECKS, WatchHostLink } from "../monitors/WatchHostLink";

export type AnswerKind = "ip" | "geo" | "asn" | "email" | "email-security" | "domain" | "tls" | "dns" | null;

export function answerKind(value: unknown): AnswerKind {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Json;
  if (typeof v.ip === "string" && v.privacy && v.network) return "ip";
  if (typeof v.ip === "string" && "latitude" in v && "country" in v) return "geo";
  if (typeof v.asn === "number" && "prefixes" in v && v.hosting && Array.isArray(v.lists)) return "asn";
  if (typeof v.email === "string" && v.syntax && "disposable" in v) return "email";
  if (typeof v.domain === "string" && "registrableDomain" in v && v.risk) return "domain";
  if (typeof v.domain === "string" && v.overall && v.spf && v.dmarc && v.dkim) return "email-security";
  if (typeof v.host === "string" && "chainVerified" in v && "certificate" in v) return "tls";
  if (Array.isArray(v.records) && typeof v.statusMeaning === "string") return "dns";
  return null;
}

function Summary({ kind, v }: { kind: AnswerKind; v: Json }): ReactNode {
  switch (kind) {
    case "ip":
      return <IpCard v={v} />;
    case "geo":
      return <GeoCard v={v} />;
    case "asn":
      return <AsnCard v={v} />;
    case "email":
      return <EmailCard v={v} />;
    case "email-security":
      return <EmailSecurityCard v={v} />;
    case "domain":
      return <DomainCard v={v} />;
    case "tls":
      return <TlsCard v={v} />;
    case "dns":
      return <DnsCard v={v} />;
    default:
      return null;
  }
}

export function LookupAnswer({ value, title }: { value: unknown; title?: string }) {
  const kind = answerKind(value);
  return (
    <section className="answer lookup-answer" data-testid="result-view" data-kind={kind ?? "other"}>
      {title ? <h2>{title}</h2> : null}
      {kind ? <Summary kind={kind} v={value as Json} /> : null}
      {kind && WATCH_CHECKS[kind] ? (
        <WatchHostLink target={String((value as Json).host ?? (value as Json).domain)} checks={WATCH_CHECKS[kind]!} />
      ) : null}
      <details className="card" data-testid="answer-details" open={kind === null}>
        <summary>Details</summary>
        <StructureTree value={value} />
      </details>
      <details className="card" data-testid="answer-raw">
        <summary>Raw JSON</summary>
        <RawJson value={value} />
      </details>
    </section>
  );
}
