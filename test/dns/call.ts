// Calls this area's routes through the REST API by procedure name, so table-driven tests can pass plain inputs:
// GET inputs become the query string, POST inputs the JSON body.
import type { TestApp, TestResponse } from "../harness";

const ROUTES = {
  "dns.dnsLookup": ["GET", "/v1/dns/lookup"],
  "email.emailCheck": ["POST", "/v1/email/check"],
  "email.emailSecurity": ["GET", "/v1/email/security"],
  "blocklists.blocklistsCheck": ["POST", "/v1/blocklists/check"],
  "cidr.cidrCheck": ["POST", "/v1/cidr/check"],
} as const;

export type Procedure = keyof typeof ROUTES;

export function callProcedure(app: TestApp, key: string, procedure: Procedure, input: unknown): Promise<TestResponse> {
  const [method, path] = ROUTES[procedure];
  if (method === "POST") return app.request(method, path, { key, body: input });
  const query = new URLSearchParams(Object.entries(input as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  return app.request(method, `${path}?${query}`, { key });
}
