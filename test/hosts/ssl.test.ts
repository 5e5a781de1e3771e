import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getHostSslOrThrow } from "../../server/hosts/ssl";
import { createTestPki, startTlsServer, type RunningTlsServer, type TestPki } from "../fakes/tls-server";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";

let pki: TestPki;
let good: RunningTlsServer;
let expired: RunningTlsServer;
let selfSigned: RunningTlsServer;
let dns: FakeDnsServer;
const env = { ...process.env };

beforeAll(async () => {
  pki = createTestPki();
  good = await startTlsServer(pki.issue({ names: ["site.test", "www.site.test"], days: 30 }));
  expired = await startTlsServer(
    pki.issue({
      names: ["old.site.test"],
      notBefore: new Date(Date.now() - 90 * 86_400_000),
      notAfter: new Date(Date.now() - 5 * 86_400_000),
    }),
  );
  selfSigned = await startTlsServer(pki.issue({ names: ["self.site.test"], selfSigned: true }));
  dns = await startFakeDnsServer({
    records: {
      "site.test": [{ type: "A", data: "127.0.0.1" }],
      "www.site.test": [{ type: "A", data: "127.0.0.1" }],
      "other.test": [{ type: "A", data: "127.0.0.1" }],
      "old.site.test": [{ type: "A", data: "127.0.0.1" }],
      "self.site.test": [{ type: "A", data: "127.0.0.1" }],
    },
  });
  Object.assign(process.env, {
    SERVICE_EXTRA_CA_FILE: pki.caFile,
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: dns.address,
  });
});

afterAll(async () => {
  process.env = env;
  await Promise.all([good.close(), expired.close(), selfSigned.close(), dns.close()]);
});

describe("GET /host/{host}/ssl domain function", () => {
  it("summarises a valid certificate with SNI, chain and name match", async () => {
    const r = await getHostSslOrThrow(`site.test:${good.port}`);
    expect(r.connected).toBe(true);
    expect(r.serverName).toBe("site.test");
    expect(r.address).toBe("127.0.0.1");
    expect(r.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(r.cipher?.name).toBeTruthy();
    expect(r.chainVerified).toBe(true);
    expect(r.chainError).toBeNull();
    expect(r.nameMatches).toBe(true);
    expect(r.valid).toBe(true);
    const c = r.certificate!;
    expect(c.subject.commonName).toBe("site.test");
    expect(c.issuer.commonName).toBe("Service Test Root CA");
    expect(c.issuer.organization).toBe("Service Tests");
    expect(c.subjectAltNames).toEqual(["site.test", "www.site.test"]);
    expect(c.daysLeft).toBeGreaterThanOrEqual(29);
    expect(c.daysLeft).toBeLessThanOrEqual(30);
    expect(c.keyType).toBe("rsa");
    expect(c.keySize).toBe(2048);
    expect(c.signatureAlgorithm).toBe("sha256WithRSAEncryption");
    expect(c.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(c.selfSigned).toBe(false);
    expect(r.chain.map((e) => e.subject)).toEqual(["site.test", "Service Test Root CA"]);
    expect(r.timing?.tlsMs).not.toBeNull();
    expect(r.sources.map((s) => s.name)).toEqual(["dns-resolution", "tls-handshake"]);
  });

  it("reports a name mismatch with its reason while the chain still verifies", async () => {
    const r = await getHostSslOrThrow(`other.test:${good.port}`);
    expect(r.chainVerified).toBe(true);
    expect(r.nameMatches).toBe(false);
    expect(r.nameMismatchReason).toMatch(/does not cover other\.test/);
    expect(r.valid).toBe(false);
  });

  it("reports an expired certificate", async () => {
    const r = await getHostSslOrThrow(`old.site.test:${expired.port}`);
    expect(r.certificate?.expired).toBe(true);
    expect(r.certificate?.daysLeft).toBeLessThan(0);
    expect(r.chainVerified).toBe(false);
    expect(r.chainError).toBe("CERT_HAS_EXPIRED");
    expect(r.warnings.join(" ")).toMatch(/expired/);
    expect(r.valid).toBe(false);
  });

  it("reports a self-signed certificate as untrusted", async () => {
    const r = await getHostSslOrThrow(`self.site.test:${selfSigned.port}`);
    expect(r.certificate?.selfSigned).toBe(true);
    expect(r.chainVerified).toBe(false);
    expect(r.chainError).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    expect(r.chainErrorReason).toMatch(/self-signed/);
  });

  it("does not trust the test CA without SERVICE_EXTRA_CA_FILE", async () => {
    delete process.env.SERVICE_EXTRA_CA_FILE;
    try {
      const r = await getHostSslOrThrow(`site.test:${good.port}`);
      expect(r.chainVerified).toBe(false);
      expect(r.chainError).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/);
    } finally {
      process.env.SERVICE_EXTRA_CA_FILE = pki.caFile;
    }
  });

  it("answers connected: false when nothing listens", async () => {
    const r = await getHostSslOrThrow("127.0.0.1:1");
    expect(r.connected).toBe(false);
    expect(r.error?.kind).toBe("connect");
    expect(r.certificate).toBeNull();
  });

  it("sends no SNI for an IP literal and reports the mismatch", async () => {
    const r = await getHostSslOrThrow(`127.0.0.1:${good.port}`);
    expect(r.serverName).toBeNull();
    expect(r.nameMatches).toBe(false);
  });

  it("404s a name that does not exist", async () => {
    await expect(getHostSslOrThrow("missing.site.test")).rejects.toMatchObject({ appCode: "DOMAIN_NOT_FOUND" });
  });

  it("refuses loopback when private targets are not allowed", async () => {
    delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
    const before = good.connections;
    try {
      await expect(getHostSslOrThrow(`site.test:${good.port}`)).rejects.toMatchObject({ appCode: "TARGET_FORBIDDEN" });
      expect(before).toBeGreaterThan(0);
      expect(good.connections).toBe(before);
    } finally {
      process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    }
  });
});
