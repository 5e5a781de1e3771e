// GET /host/{host}/ssl: one TLS handshake to the vetted address with SNI, then a report on what the server
// presented. Chain validity and name match are judged separately so the answer can say which one failed.
import { checkServerIdentity, type DetailedPeerCertificate } from "node:tls";
import { AppError } from "../errors";
import { connectTlsToVetted, parseHostAndPort, resolveTargetOrThrow, type TlsConnection } from "../net";
import { certificateWarnings, chainErrorReason, chainOf, summarizeCertificate } from "./cert";
import { errorOf, hostTimeoutMs } from "./connection-errors";
import type { SslResult } from "./schemas";

const round = (ms: number) => Math.round(ms * 10) / 10;

export async function getHostSslOrThrow(hostInput: string): Promise<SslResult> {
  const parsed = parseHostAndPort(hostInput);
  if (!parsed) throw new AppError("INVALID_REQUEST", "host must be a host name or IP address, optionally with :port.");
  const port = parsed.port ?? 443;
  const started = performance.now();
  const checkedAt = new Date().toISOString();
  const vet = await resolveTargetOrThrow(parsed.address ? parsed.address : parsed.host);
  const base: SslResult = {
    host: parsed.host,
    port,
    address: null,
    serverName: parsed.address ? null : parsed.host,
    connected: false,
    error: null,
    protocol: null,
    cipher: null,
    alpnProtocol: null,
    certificate: null,
    chain: [],
    chainVerified: null,
    chainError: null,
    chainErrorReason: null,
    nameMatches: null,
    nameMismatchReason: null,
    valid: false,
    warnings: [],
    timing: null,
    checkedAt,
    sources: [],
  };
  if (vet.kind === "unresolved") {
    if (vet.notFound) throw new AppError("DOMAIN_NOT_FOUND", `${parsed.host} does not resolve: ${vet.reason}.`);
    throw new AppError("UPSTREAM_UNAVAILABLE", `Could not resolve ${parsed.host}: ${vet.reason}.`);
  }
  const target = vet.target;
  base.sources.push({ name: "dns-resolution", detail: target.resolver, fetchedAt: checkedAt });
  let conn: TlsConnection;
  try {
    conn = await connectTlsToVetted(target, port, { timeoutMs: hostTimeoutMs(), alpn: ["h2", "http/1.1"] });
  } catch (err) {
    return { ...base, address: target.addresses[0] ?? null, error: errorOf(err) };
  }
  const { socket } = conn;
  try {
    const peer = socket.getPeerCertificate(true) as DetailedPeerCertificate;
    if (!peer || !peer.raw)
      return {
        ...base,
        address: conn.address,
        connected: true,
        error: { kind: "tls", message: "The server sent no certificate." },
      };
    const protocol = socket.getProtocol();
    const cipher = socket.getCipher();
    const certificate = summarizeCertificate(peer);
    const chainCode = socket.authorized
      ? null
      : socket.authorizationError
        ? String(socket.authorizationError)
        : "UNKNOWN";
    const identityError = checkServerIdentity(parsed.host, peer);
    const nameMatches = identityError === undefined;
    const withinDates = !certificate.expired && !certificate.notYetValid;
    return {
      ...base,
      address: conn.address,
      connected: true,
      protocol,
      cipher: cipher
        ? { name: cipher.name, standardName: cipher.standardName ?? null, version: cipher.version ?? null }
        : null,
      alpnProtocol: typeof socket.alpnProtocol === "string" ? socket.alpnProtocol : null,
      certificate,
      chain: chainOf(peer),
      chainVerified: chainCode === null,
      chainError: chainCode,
      chainErrorReason: chainErrorReason(chainCode),
      nameMatches,
      nameMismatchReason: nameMatches
        ? null
        : `The certificate does not cover ${parsed.host}: ${identityError!.message}`,
      valid: chainCode === null && nameMatches && withinDates,
      warnings: certificateWarnings(certificate, protocol),
      timing: {
        dnsMs: target.dnsMs,
        connectMs: round(conn.connectMs),
        tlsMs: round(conn.tlsMs),
        ttfbMs: null,
        totalMs: round(performance.now() - started),
      },
      sources: [
        ...base.sources,
        { name: "tls-handshake", detail: `${conn.address}:${port}`, fetchedAt: new Date().toISOString() },
      ],
    };
  } finally {
    socket.destroy();
  }
}
