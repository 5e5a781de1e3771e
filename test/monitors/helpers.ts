// Shared set-up of the monitor tests: a fake DNS server on 127.0.0.1 that resolves the test names (to 127.0.0.1)
// and plays the DNS blocklists, with loopback targets opened by configuration (SERVICE_ALLOW_PRIVATE_TARGETS=1),
// which a test closes again to prove the block.
import { afterAll } from "vitest";
import { registerBulkProcedures } from "../../server/api/bulk-procedures";
import { startFakeDnsServer, type FakeDnsServer, type FakeRecord } from "../fakes/dns-server";
import type { TestApp } from "../harness";

export const TXT = (text: string): FakeRecord => ({ type: "TXT", data: text.match(/.{1,255}/g) ?? [""] });

export async function monitorDns(records: Record<string, FakeRecord[]> = {}): Promise<FakeDnsServer> {
  const dns = await startFakeDnsServer({ records });
  const env = { ...process.env };
  Object.assign(process.env, {
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: dns.address,
    SERVICE_DNS_TIMEOUT_MS: "300",
    SERVICE_DNSBL_IP_ZONES: "zen.spamhaus.org",
    SERVICE_DNSBL_DOMAIN_ZONES: "dbl.spamhaus.org",
    SERVICE_DNSBL_TIMEOUT_MS: "300",
  });
  registerBulkProcedures();
  afterAll(async () => {
    process.env = env;
    await dns.close();
  });
  return dns;
}

export const A = (ip = "127.0.0.1"): FakeRecord[] => [{ type: "A", data: ip }];

export function api(app: TestApp, key: string) {
  return (method: string, path: string, body?: unknown) =>
    app.request(method, path, { key, ...(body === undefined ? {} : { body }) });
}
