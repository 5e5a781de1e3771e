// Just enough DER to read a certificate's signatureAlgorithm, which node:crypto's X509Certificate does not expose
// on Node 20: Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm AlgorithmIdentifier, signature }.

const SIGNATURE_ALGORITHMS: Record<string, string> = {
  "1.2.840.113549.1.1.4": "md5WithRSAEncryption",
  "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
  "1.2.840.113549.1.1.10": "RSASSA-PSS",
  "1.2.840.113549.1.1.11": "sha256WithRSAEncryption",
  "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
  "1.2.840.113549.1.1.13": "sha512WithRSAEncryption",
  "1.2.840.10045.4.1": "ecdsa-with-SHA1",
  "1.2.840.10045.4.3.2": "ecdsa-with-SHA256",
  "1.2.840.10045.4.3.3": "ecdsa-with-SHA384",
  "1.2.840.10045.4.3.4": "ecdsa-with-SHA512",
  "1.3.101.112": "Ed25519",
  "1.3.101.113": "Ed448",
};

type Tlv = { tag: number; start: number; end: number; next: number };

function readTlv(buf: Uint8Array, pos: number): Tlv | null {
  if (pos + 2 > buf.length) return null;
  const tag = buf[pos]!;
  let len = buf[pos + 1]!;
  let start = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > buf.length) return null;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[start + i]!;
    start += n;
  }
  const end = start + len;
  return end > buf.length ? null : { tag, start, end, next: end };
}

function decodeOid(bytes: Uint8Array): string {
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join(".");
}

/** The signature algorithm of a DER certificate: a well-known name, the OID when unknown, null when unparsable. */
export function signatureAlgorithmOf(der: Uint8Array): string | null {
  const cert = readTlv(der, 0);
  if (!cert || cert.tag !== 0x30) return null;
  const tbs = readTlv(der, cert.start);
  if (!tbs) return null;
  const alg = readTlv(der, tbs.next);
  if (!alg || alg.tag !== 0x30) return null;
  const oid = readTlv(der, alg.start);
  if (!oid || oid.tag !== 0x06) return null;
  const dotted = decodeOid(der.subarray(oid.start, oid.end));
  return SIGNATURE_ALGORITHMS[dotted] ?? dotted;
}
