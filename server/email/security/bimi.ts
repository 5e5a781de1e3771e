// BIMI (draft-brand-indicators-for-message-identification): the record at default._bimi.<domain> points mailbox
// providers at the brand logo (l=, an SVG over HTTPS) and its evidence (a=, a mark certificate over HTTPS). Providers
// show the logo only when DMARC is enforced, so the record is judged together with the DMARC policy. The logo is
// reported, never fetched.
import { fetchPolicyTxt } from "./txt";
import type { CheckStatus } from "./verdict";

export interface BimiCheck {
  status: CheckStatus;
  reason: string;
  present: boolean;
  record: string | null;
  logoUrl: string | null;
  authorityUrl: string | null;
  errors: string[];
}

const BIMI_TAG = /^v=BIMI1\s*(;|$)/i;

const isHttpsUrl = (v: string) => {
  try {
    return new URL(v).protocol === "https:";
  } catch {
    return false;
  }
};

/** Whether DMARC is strict enough for BIMI: p=quarantine or p=reject applied to all mail (pct=100). */
export interface DmarcForBimi {
  enforced: boolean;
  policy: string | null;
  pct: number | null;
}

export async function checkBimi(domain: string, dmarc: Promise<DmarcForBimi>): Promise<BimiCheck> {
  const name = `default._bimi.${domain}`;
  const txt = await fetchPolicyTxt(name, BIMI_TAG);
  const base: BimiCheck = {
    status: "fail",
    reason: "",
    present: txt.matches.length > 0,
    record: txt.matches.join(" | ") || null,
    logoUrl: null,
    authorityUrl: null,
    errors: [],
  };
  const out = (d: Partial<BimiCheck> & { status: CheckStatus; reason: string }) => ({ ...base, ...d });
  if (!txt.answered)
    return out({ status: "unknown", reason: `The TXT lookup of ${name} failed (${txt.query.status}); retry later.` });
  if (txt.matches.length === 0)
    return out({
      status: "warn",
      reason: `No BIMI record. BIMI is optional: with DMARC enforced, publish "v=BIMI1; l=https://<your SVG logo>; a=https://<your mark certificate>" at ${name} to show your logo in supporting inboxes.`,
    });
  if (txt.matches.length > 1)
    return out({
      status: "fail",
      reason: `More than one BIMI record at ${name}: mailbox providers ignore them all. Keep one.`,
    });
  const tags: Record<string, string> = {};
  for (const part of txt.matches[0].split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) tags[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).trim();
  }
  const logoUrl = tags.l || null;
  const authorityUrl = tags.a || null;
  Object.assign(base, { logoUrl, authorityUrl });
  if (!logoUrl && !authorityUrl)
    return out({ status: "pass", reason: "The record declines BIMI (empty l= and a=): no logo is shown, by choice." });
  const errors = [
    ...(!logoUrl ? ["l= (the logo URL) is missing."] : []),
    ...(logoUrl && !isHttpsUrl(logoUrl)
      ? [`l=${logoUrl} is not an https: URL; providers load the logo only over HTTPS.`]
      : []),
    ...(authorityUrl && !isHttpsUrl(authorityUrl) ? [`a=${authorityUrl} is not an https: URL.`] : []),
  ];
  if (errors.length) return out({ status: "fail", errors, reason: `The BIMI record is unusable: ${errors.join(" ")}` });
  const d = await dmarc;
  if (!d.enforced)
    return out({
      status: "warn",
      reason: `BIMI needs DMARC at p=quarantine or p=reject with pct=100 (now ${d.policy ? `p=${d.policy}, pct=${d.pct ?? 100}` : "no valid DMARC policy"}): mailbox providers ignore the logo until then.`,
    });
  if (!authorityUrl)
    return out({
      status: "warn",
      reason:
        "The logo is published but no a= mark certificate (VMC or CMC) backs it: Gmail and Apple Mail do not show it.",
    });
  return out({
    status: "pass",
    reason: `The logo ${logoUrl} is published with mark certificate evidence at ${authorityUrl}.`,
  });
}
