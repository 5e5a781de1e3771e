// Response contracts of the host routes (/host/{host}/ssl, /host/{host}/status) and the online check.
import { z } from "zod";

export const sourceSchema = z.object({
  name: z.string().describe('What was asked, e.g. "tls-handshake" or "http-request"'),
  detail: z.string().nullable().describe("Which server, resolver or probe answered"),
  fetchedAt: z.string().describe("When the data was collected (ISO 8601)"),
});

export const timingSchema = z.object({
  dnsMs: z.number().describe("Time to resolve the host name (0 for an IP literal)"),
  connectMs: z.number().nullable().describe("TCP connect time"),
  tlsMs: z.number().nullable().describe("TLS handshake time (null for plain HTTP)"),
  ttfbMs: z.number().nullable().describe("Time from request start to the first response byte"),
  totalMs: z.number().describe("Total time, DNS included"),
});

export const distinguishedNameSchema = z.object({
  commonName: z.string().nullable(),
  organization: z.string().nullable(),
  organizationalUnit: z.string().nullable(),
  country: z.string().nullable(),
  text: z.string().describe("The full distinguished name, one attribute per line as OpenSSL prints it"),
});

export const certificateSchema = z.object({
  subject: distinguishedNameSchema,
  issuer: distinguishedNameSchema,
  subjectAltNames: z.array(z.string()).describe("DNS names and IP addresses the certificate is valid for"),
  validFrom: z.string(),
  validTo: z.string(),
  daysLeft: z.number().int().describe("Whole days until validTo (negative once expired)"),
  expired: z.boolean(),
  notYetValid: z.boolean(),
  keyType: z.string().nullable().describe("rsa, ec, ed25519, ..."),
  keySize: z.number().int().nullable().describe("Bits: RSA modulus length or EC curve size"),
  keyCurve: z.string().nullable(),
  signatureAlgorithm: z.string().nullable(),
  serialNumber: z.string(),
  fingerprintSha256: z.string(),
  fingerprintSha1: z.string(),
  selfSigned: z.boolean(),
});

export const chainEntrySchema = z.object({
  subject: z.string().nullable(),
  issuer: z.string().nullable(),
  validTo: z.string(),
  fingerprintSha256: z.string(),
});

export const connectionErrorSchema = z.object({
  kind: z.enum(["dns", "connect", "tls", "timeout", "protocol"]),
  message: z.string(),
});

export const sslResultSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  address: z.string().nullable().describe("The vetted address the connection went to"),
  serverName: z.string().nullable().describe("SNI sent (null for an IP literal)"),
  connected: z.boolean(),
  error: connectionErrorSchema.nullable().describe("Why no certificate could be read, when connected is false"),
  protocol: z.string().nullable().describe("Negotiated TLS version, e.g. TLSv1.3"),
  cipher: z
    .object({ name: z.string(), standardName: z.string().nullable(), version: z.string().nullable() })
    .nullable(),
  alpnProtocol: z.string().nullable(),
  certificate: certificateSchema.nullable(),
  chain: z.array(chainEntrySchema).describe("Certificates the server sent or that completed the path, leaf first"),
  chainVerified: z.boolean().nullable().describe("The chain builds to a trusted root (system CAs)"),
  chainError: z.string().nullable().describe("OpenSSL verification code when the chain does not verify"),
  chainErrorReason: z.string().nullable(),
  nameMatches: z.boolean().nullable().describe("The certificate covers the requested host name"),
  nameMismatchReason: z.string().nullable(),
  valid: z.boolean().describe("Chain verified, name matches and within its validity dates"),
  warnings: z.array(z.string()),
  timing: timingSchema.nullable(),
  checkedAt: z.string(),
  sources: z.array(sourceSchema),
});

export const redirectHopSchema = z.object({
  url: z.string(),
  status: z.number().int().nullable(),
  location: z.string().nullable(),
  address: z.string().nullable(),
  timing: timingSchema.nullable(),
});

export const notableHeadersSchema = z.object({
  server: z.string().nullable(),
  poweredBy: z.string().nullable(),
  contentType: z.string().nullable(),
  strictTransportSecurity: z.string().nullable(),
  contentSecurityPolicy: z.string().nullable(),
  xFrameOptions: z.string().nullable(),
  xContentTypeOptions: z.string().nullable(),
  referrerPolicy: z.string().nullable(),
  permissionsPolicy: z.string().nullable(),
  cacheControl: z.string().nullable(),
  via: z.string().nullable(),
  cdn: z.string().nullable().describe("CDN or proxy named by the response headers (cf-ray, x-served-by, ...)"),
});

export const statusResultSchema = z.object({
  host: z.string(),
  requestedUrl: z.string(),
  finalUrl: z.string(),
  reachable: z.boolean().describe("An HTTP response was received"),
  status: z.number().int().nullable(),
  statusText: z.string().nullable(),
  ok: z.boolean().describe("The final status is below 400"),
  address: z.string().nullable(),
  httpVersion: z.literal("1.1").nullable(),
  tls: z
    .object({
      authorized: z.boolean(),
      error: z.string().nullable(),
      protocol: z.string().nullable(),
      cipher: z.string().nullable(),
    })
    .nullable(),
  timing: timingSchema.nullable(),
  redirects: z.array(redirectHopSchema).describe("Every request made, in order; the last is the final response"),
  redirectOutcome: z.enum(["none", "followed", "blocked", "too_many"]),
  blockedRedirect: z
    .object({ url: z.string(), reason: z.string() })
    .nullable()
    .describe("A redirect the SSRF guard refused to follow"),
  headers: notableHeadersSchema.nullable(),
  missingSecurityHeaders: z.array(z.string()),
  error: connectionErrorSchema.nullable(),
  checkedAt: z.string(),
  sources: z.array(sourceSchema),
});

export type SslResult = z.infer<typeof sslResultSchema>;
export type StatusResult = z.infer<typeof statusResultSchema>;
export type CertificateSummary = z.infer<typeof certificateSchema>;
export type Source = z.infer<typeof sourceSchema>;
