// A test app whose resolver is a fake DNS server on 127.0.0.1 serving the given records.
import { createTestApp, type TestApp } from "../harness";
import { startFakeDnsServer, type FakeDnsServer } from "./dns-server";

export async function startAppWithFakeDns(
  records: NonNullable<Parameters<typeof startFakeDnsServer>[0]>["records"],
): Promise<{ app: TestApp; dns: FakeDnsServer }> {
  const app = await createTestApp();
  const dns = await startFakeDnsServer({ records });
  process.env.SERVICE_DNS_SERVERS = dns.address;
  return { app, dns };
}
