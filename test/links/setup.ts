// A test app for protected links: a fake DNS server on 127.0.0.1 plays both the resolver of destination hosts and
// a domain blocklist zone ("dbl.test"), and short links are built on a fixed public base.
import { afterAll } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { startFakeDnsServer } from "../fakes/dns-server";

export const PUBLIC_BASE = "https://sho.rt";

const ENV = {
  SERVICE_TARGET_RESOLVER: "configured",
  SERVICE_DNSBL_DOMAIN_ZONES: "dbl.test",
  SERVICE_PUBLIC_URL: PUBLIC_BASE,
  SERVICE_LINKS_ANON_RATE_LIMIT: "1000",
  SERVICE_LINKS_KEY_RATE_LIMIT: "1000",
};

export async function startLinksApp(): Promise<TestApp> {
  const app = await createTestApp();
  const dns = await startFakeDnsServer({
    records: {
      "example.com": [{ type: "A", data: "93.184.216.34" }],
      "www.example.org": [{ type: "A", data: "93.184.216.34" }],
      "intranet.example.com": [{ type: "A", data: "10.0.0.5" }],
      "mixed.example.com": [
        { type: "A", data: "93.184.216.34" },
        { type: "A", data: "127.0.0.1" },
      ],
      "meta.example.com": [{ type: "A", data: "169.254.169.254" }],
      "evil.example.net": [{ type: "A", data: "93.184.216.35" }],
      "evil.example.net.dbl.test": [{ type: "A", data: "127.0.1.2" }],
    },
  });
  const saved = { ...process.env };
  Object.assign(process.env, ENV, { SERVICE_DNS_SERVERS: dns.address });
  delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
  afterAll(async () => {
    for (const k of [...Object.keys(ENV), "SERVICE_DNS_SERVERS"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await dns.close();
  });
  return app;
}

export const createLink = (
  app: TestApp,
  body: unknown,
  opts: { key?: string; keyHeader?: "bearer" | "x-api-key"; headers?: Record<string, string> } = {},
) => app.request("POST", "/v1/go/links", { body, ...opts });
