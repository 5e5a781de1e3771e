// SMTP TLS reporting (RFC 8460): the TXT record at _smtp._tls.<domain> names where senders send daily reports of
// failed TLS deliveries (MTA-STS and DANE failures, stripped STARTTLS). Without it those failures go unseen.
import { fetchPolicyTxt } from "./txt";
import type { CheckStatus } from "./verdict";

export interface TlsRptCheck {
  status: CheckStatus;
  reason: string;
  present: boolean;
  record: string | null;
  rua: string[];
  invalidRua: string[];
}

const TLSRPT_TAG = /^v=TLSRPTv1\s*(;|$)/i;
const MAILBOX = /^[^\s@<>(),;:"]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** RFC 8460 section 3: each rua is a mailto: address or an https: URL. */
export function isValidRua(uri: string): boolean {
  if (/^mailto:/i.test(uri)) return MAILBOX.test(decodeURIComponent(uri.slice(7).split("?")[0]));
  if (!/^https:\/\//i.test(uri)) return false;
  try {
    return new URL(uri).hostname.includes(".");
  } catch {
    return false;
  }
}

export async function checkTlsRpt(domain: string): Promise<TlsRptCheck> {
  const name = `_smtp._tls.${domain}`;
  const txt = await fetchPolicyTxt(name, TLSRPT_TAG);
  const base: TlsRptCheck = {
    status: "fail",
    reason: "",
    present: txt.matches.length > 0,
    record: txt.matches.join(" | ") || null,
    rua: [],
    invalidRua: [],
  };
  const out = (d: Partial<TlsRptCheck> & { status: CheckStatus; reason: string }) => ({ ...base, ...d });
  if (!txt.answered)
    return out({ status: "unknown", reason: `The TXT lookup of ${name} failed (${txt.query.status}); retry later.` });
  if (txt.matches.length === 0)
    return out({
      status: "warn",
      reason: `No TLS-RPT record: failed TLS deliveries to your servers go unreported. Publish "v=TLSRPTv1; rua=mailto:tls-reports@${domain}" at ${name} (RFC 8460).`,
    });
  if (txt.matches.length > 1)
    return out({
      status: "fail",
      reason: `More than one TLS-RPT record at ${name}: senders ignore them all. Keep one.`,
    });
  const ruaTag = txt.matches[0]
    .split(";")
    .map((t) => t.trim())
    .find((t) => /^rua=/i.test(t));
  const rua = (ruaTag?.slice(4) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const invalidRua = rua.filter((u) => !isValidRua(u));
  base.rua = rua;
  base.invalidRua = invalidRua;
  if (rua.length === 0)
    return out({
      status: "fail",
      reason: `The record has no rua= address, so no report can be sent: add rua=mailto:tls-reports@${domain}.`,
    });
  if (invalidRua.length)
    return out({
      status: "fail",
      reason: `${invalidRua.join(", ")} ${invalidRua.length > 1 ? "are" : "is"} not a mailto: address or https: URL; senders cannot report there.`,
    });
  return out({ status: "pass", reason: `TLS failures are reported to ${rua.join(", ")}.` });
}
