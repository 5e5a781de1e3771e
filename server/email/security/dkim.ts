// DKIM (RFC 6376): selectors cannot be listed, so the keys of common selectors (and any the caller names) are
// probed at <selector>._domainkey.<domain>; the key type and size come from the published public key.
import { createPublicKey } from "node:crypto";
import { queryDns } from "../../providers/dns";
import type { CheckStatus } from "./verdict";

export const COMMON_DKIM_SELECTORS = [
  "default",
  "google",
  "selector1",
  "selector2",
  "k1",
  "k2",
  "k3",
  "s1",
  "s2",
  "dkim",
  "mail",
  "smtp",
  "mandrill",
  "mxvault",
  "zoho",
  "zmail",
  "protonmail",
  "protonmail2",
  "protonmail3",
  "fm1",
  "fm2",
  "fm3",
  "sig1",
  "pm",
  "mailjet",
  "everlytickey1",
];

export interface DkimKey {
  selector: string;
  name: string;
  record: string;
  keyType: string;
  keyBits: number | null;
  revoked: boolean;
  testing: boolean;
  error: string | null;
}

export interface DkimCheck {
  status: CheckStatus;
  reason: string;
  selectorsChecked: string[];
  keys: DkimKey[];
  failedSelectors: string[];
}

export function parseDkimKey(selector: string, name: string, record: string): DkimKey {
  const tags: Record<string, string> = {};
  for (const part of record.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) tags[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).replace(/\s+/g, "");
  }
  const keyType = (tags.k ?? "rsa").toLowerCase();
  const key: DkimKey = {
    selector,
    name,
    record,
    keyType,
    keyBits: null,
    revoked: false,
    testing: /(^|:)y(:|$)/.test(tags.t ?? ""),
    error: null,
  };
  if (tags.p === undefined) return { ...key, error: "No p= tag (public key)." };
  if (tags.p === "") return { ...key, revoked: true };
  try {
    const der = Buffer.from(tags.p, "base64");
    if (keyType === "ed25519")
      return {
        ...key,
        keyBits: der.length === 32 ? 256 : null,
        error: der.length === 32 ? null : "An Ed25519 key must be 32 bytes.",
      };
    const pub = createPublicKey({ key: der, format: "der", type: "spki" });
    return { ...key, keyBits: pub.asymmetricKeyDetails?.modulusLength ?? null };
  } catch {
    return { ...key, error: "The p= value is not a valid public key." };
  }
}

export async function checkDkim(domain: string, extraSelectors: string[] = []): Promise<DkimCheck> {
  const selectors = [...new Set([...extraSelectors.map((s) => s.toLowerCase()), ...COMMON_DKIM_SELECTORS])];
  const results = await Promise.all(
    selectors.map(async (selector) => {
      const name = `${selector}._domainkey.${domain}`;
      const q = await queryDns(name, "TXT");
      const texts = q.records
        .filter((r) => r.type === "TXT")
        .map((r) => (r.data && "strings" in r.data ? r.data.strings.join("") : r.value));
      const rec = texts.find((t) => /(^|;)\s*(v=DKIM1|p=|k=)/i.test(t));
      return { selector, name, q, rec };
    }),
  );
  const keys = results.filter((r) => r.rec).map((r) => parseDkimKey(r.selector, r.name, r.rec!));
  const failedSelectors = results
    .filter((r) => !["NOERROR", "NODATA", "NXDOMAIN"].includes(r.q.status))
    .map((r) => r.selector);
  const base = { selectorsChecked: selectors, keys, failedSelectors };
  const live = keys.filter((k) => !k.revoked && !k.error);
  if (live.length === 0) {
    if (failedSelectors.length === selectors.length)
      return { ...base, status: "unknown", reason: "No DKIM lookup got an answer; retry later." };
    const extra = keys.length ? ` (${keys.length} revoked or broken key${keys.length > 1 ? "s" : ""} found)` : "";
    return {
      ...base,
      status: "warn",
      reason: `No DKIM key at the ${selectors.length} common selectors${extra}. Selectors cannot be enumerated: if you sign mail, pass your selector (selectors=...) to check it; if not, enable DKIM signing at your mail provider.`,
    };
  }
  const weak = live.filter((k) => k.keyType === "rsa" && k.keyBits !== null && k.keyBits < 1024);
  if (weak.length)
    return {
      ...base,
      status: "fail",
      reason: `Selector ${weak[0].selector} publishes a ${weak[0].keyBits}-bit RSA key: receivers ignore keys under 1024 bits. Rotate to a 2048-bit key.`,
    };
  const short = live.filter((k) => k.keyType === "rsa" && k.keyBits !== null && k.keyBits < 2048);
  if (short.length)
    return {
      ...base,
      status: "warn",
      reason: `Selector ${short[0].selector} uses a ${short[0].keyBits}-bit RSA key. Rotate to 2048 bits.`,
    };
  const testing = live.find((k) => k.testing);
  if (testing)
    return {
      ...base,
      status: "warn",
      reason: `Selector ${testing.selector} is in testing mode (t=y): receivers treat its signatures as unsigned. Remove t=y.`,
    };
  return {
    ...base,
    status: "pass",
    reason: `DKIM key${live.length > 1 ? "s" : ""} found at ${live.map((k) => k.selector).join(", ")}.`,
  };
}
