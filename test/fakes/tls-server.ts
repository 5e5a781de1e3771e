// A throwaway PKI and a TLS server on 127.0.0.1 for tests: a CA and leaf certificates generated at test time
// (node:crypto keys, node-forge to sign), so no certificate is committed and none expires in the repository.
//
//   const pki = createTestPki();
//   const leaf = pki.issue({ names: ["site.test"], days: 30 });
//   process.env.SERVICE_EXTRA_CA_FILE = pki.caFile;
//   const srv = await startTlsServer(leaf);     // srv.port; plain TLS that answers nothing
//   await srv.close();
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";
import forge from "node-forge";

export type IssuedCert = { certPem: string; keyPem: string; chainPem: string };
export type IssueOptions = {
  names: string[];
  days?: number;
  notBefore?: Date;
  notAfter?: Date;
  selfSigned?: boolean;
  ips?: string[];
};
export type TestPki = { caPem: string; caFile: string; issue(opts: IssueOptions): IssuedCert };

function rsaKey(bits = 2048) {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const key = forge.pki.privateKeyFromPem(pem);
  return { key, pub: forge.pki.setRsaPublicKey(key.n, key.e), pem };
}

function serial(): string {
  const b = randomBytes(12);
  b[0]! &= 0x7f; // positive
  return b.toString("hex");
}

export function createTestPki(commonName = "Service Test Root CA"): TestPki {
  const ca = rsaKey();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.pub;
  caCert.serialNumber = serial();
  caCert.validity.notBefore = new Date(Date.now() - 86_400_000);
  caCert.validity.notAfter = new Date(Date.now() + 3650 * 86_400_000);
  const caAttrs = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "Service Tests" },
  ];
  caCert.setSubject(caAttrs);
  caCert.setIssuer(caAttrs);
  caCert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  caCert.sign(ca.key, forge.md.sha256.create());
  const caPem = forge.pki.certificateToPem(caCert);
  const dir = mkdtempSync(path.join(tmpdir(), "svc-pki-"));
  const caFile = path.join(dir, "ca.pem");
  writeFileSync(caFile, caPem);

  return {
    caPem,
    caFile,
    issue(opts) {
      const leaf = rsaKey();
      const cert = forge.pki.createCertificate();
      cert.publicKey = leaf.pub;
      cert.serialNumber = serial();
      const days = opts.days ?? 90;
      cert.validity.notBefore = opts.notBefore ?? new Date(Date.now() - 86_400_000);
      cert.validity.notAfter = opts.notAfter ?? new Date(Date.now() + days * 86_400_000);
      const subject = [{ name: "commonName", value: opts.names[0] ?? "localhost" }];
      cert.setSubject(subject);
      cert.setIssuer(opts.selfSigned ? subject : caCert.subject.attributes);
      const altNames = [
        ...opts.names.map((value) => ({ type: 2, value })),
        ...(opts.ips ?? []).map((ip) => ({ type: 7, ip })),
      ];
      cert.setExtensions([
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
        { name: "extKeyUsage", serverAuth: true },
        { name: "subjectAltName", altNames },
      ]);
      cert.sign(opts.selfSigned ? leaf.key : ca.key, forge.md.sha256.create());
      const certPem = forge.pki.certificateToPem(cert);
      return { certPem, keyPem: leaf.pem, chainPem: opts.selfSigned ? certPem : certPem + caPem };
    },
  };
}

/**
 * `connections` counts TCP connections accepted, handshake completed or not; `setCertificate` serves another
 * certificate from the next handshake on (a renewal, or one about to expire), on the same port.
 */
export type RunningTlsServer = {
  port: number;
  connections: number;
  setCertificate(cert: IssuedCert): void;
  close(): Promise<void>;
};

/** A TLS server that completes handshakes and then closes; for certificate inspection tests. */
export async function startTlsServer(cert: IssuedCert): Promise<RunningTlsServer> {
  const state = { connections: 0 };
  const server = tls.createServer({ key: cert.keyPem, cert: cert.chainPem }, (socket) => socket.end());
  server.on("connection", () => state.connections++);
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get connections() {
      return state.connections;
    },
    setCertificate: (next) => server.setSecureContext({ key: next.keyPem, cert: next.chainPem }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
