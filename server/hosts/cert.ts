// Turns the certificate a server presented into the summary users compare with SSL Labs.
import { X509Certificate } from "node:crypto";
import type { DetailedPeerCertificate, PeerCertificate } from "node:tls";
import { signatureAlgorithmOf } from "./der";
import type { CertificateSummary } from "./schemas";

const DAY = 86_400_000;

type Dn = CertificateSummary["subject"];

const first = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));

function dn(obj: Record<string, string | string[]> | undefined, text: string): Dn {
  const o = obj ?? {};
  return {
    commonName: first(o.CN),
    organization: first(o.O),
    organizationalUnit: first(o.OU),
    country: first(o.C),
    text,
  };
}

function curveBits(curve: string | undefined): number | null {
  if (!curve) return null;
  const m = /(\d{3})/.exec(curve);
  if (m) return Number(m[1]);
  return curve === "prime256v1" ? 256 : null;
}

/** "DNS:a.example, IP Address:192.0.2.1" -> ["a.example", "192.0.2.1"] */
export function parseSubjectAltNames(san: string | undefined): string[] {
  if (!san) return [];
  return san
    .split(/,\s*/)
    .map((s) => s.replace(/^(DNS|IP Address):/, "").trim())
    .filter(Boolean);
}

export function summarizeCertificate(peer: PeerCertificate, now = new Date()): CertificateSummary {
  const x = new X509Certificate(peer.raw);
  const validFrom = new Date(x.validFrom);
  const validTo = new Date(x.validTo);
  const key = x.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const keyType = key.asymmetricKeyType ?? null;
  const keySize =
    details.modulusLength ??
    curveBits(details.namedCurve) ??
    (keyType === "ed25519" ? 256 : keyType === "ed448" ? 456 : null);
  return {
    subject: dn(peer.subject as unknown as Record<string, string | string[]>, x.subject),
    issuer: dn(peer.issuer as unknown as Record<string, string | string[]>, x.issuer),
    subjectAltNames: parseSubjectAltNames(x.subjectAltName),
    validFrom: validFrom.toISOString(),
    validTo: validTo.toISOString(),
    daysLeft: Math.floor((validTo.getTime() - now.getTime()) / DAY),
    expired: validTo.getTime() < now.getTime(),
    notYetValid: validFrom.getTime() > now.getTime(),
    keyType,
    keySize,
    keyCurve: details.namedCurve ?? null,
    signatureAlgorithm: signatureAlgorithmOf(peer.raw),
    serialNumber: x.serialNumber.toLowerCase(),
    fingerprintSha256: x.fingerprint256,
    fingerprintSha1: x.fingerprint,
    selfSigned: x.subject === x.issuer && x.verify(key),
  };
}

/** Leaf first, following issuerCertificate until the root (node links a self-signed root to itself). */
export function chainOf(
  peer: DetailedPeerCertificate,
): { subject: string | null; issuer: string | null; validTo: string; fingerprintSha256: string }[] {
  const out = [];
  const seen = new Set<string>();
  let cur: DetailedPeerCertificate | undefined = peer;
  while (cur && cur.raw && !seen.has(cur.fingerprint256) && out.length < 10) {
    seen.add(cur.fingerprint256);
    out.push({
      subject: first(cur.subject?.CN) ?? first(cur.subject?.O),
      issuer: first(cur.issuer?.CN) ?? first(cur.issuer?.O),
      validTo: new Date(cur.valid_to).toISOString(),
      fingerprintSha256: cur.fingerprint256,
    });
    cur = cur.issuerCertificate;
  }
  return out;
}

const CHAIN_REASONS: Record<string, string> = {
  CERT_HAS_EXPIRED: "A certificate in the chain has expired.",
  CERT_NOT_YET_VALID: "A certificate in the chain is not valid yet (check the server clock or the certificate dates).",
  DEPTH_ZERO_SELF_SIGNED_CERT: "The certificate is self-signed; browsers will not trust it.",
  SELF_SIGNED_CERT_IN_CHAIN: "The chain ends in a self-signed root that is not a trusted CA.",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    "The issuer is not a trusted CA, or the server does not send the intermediate certificate.",
  UNABLE_TO_GET_ISSUER_CERT: "The issuer certificate could not be found; the server should send the full chain.",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "The chain is incomplete: the server does not send the intermediate certificate.",
  CERT_SIGNATURE_FAILURE: "A certificate signature in the chain is invalid.",
  CERT_REVOKED: "A certificate in the chain is revoked.",
  INVALID_CA: "An intermediate in the chain is not allowed to act as a CA.",
  CERT_UNTRUSTED: "The root certificate is not trusted.",
};

export function chainErrorReason(code: string | null): string | null {
  if (!code) return null;
  return CHAIN_REASONS[code] ?? `The chain does not verify (${code}).`;
}

export function certificateWarnings(c: CertificateSummary, protocol: string | null): string[] {
  const w: string[] = [];
  if (c.expired) w.push(`The certificate expired ${-c.daysLeft} days ago.`);
  else if (c.daysLeft < 14) w.push(`The certificate expires in ${c.daysLeft} days.`);
  if (c.notYetValid) w.push("The certificate is not valid yet.");
  if (c.signatureAlgorithm && /sha1|md5/i.test(c.signatureAlgorithm))
    w.push(`Weak signature algorithm ${c.signatureAlgorithm}.`);
  if (c.keyType === "rsa" && c.keySize !== null && c.keySize < 2048)
    w.push(`RSA key of ${c.keySize} bits is below 2048.`);
  if (protocol && /^(SSLv3|TLSv1|TLSv1\.1)$/.test(protocol)) w.push(`${protocol} is deprecated (RFC 8996).`);
  return w;
}
