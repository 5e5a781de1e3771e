// Shared set-up of the sender tests: a fake DNS server playing the senders' zones and the domain blocklist, signed-in
// users with their own workspaces, and calls through the real {account_url}/api/account/senders handler.
import { generateKeyPairSync } from "node:crypto";
import type { SessionUser } from "../../server/api/context";
import { handleSendersRequest } from "../../server/api/http/senders";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import type { FakeDnsServer, FakeRecord } from "../fakes/dns-server";
import type { TestApp } from "../harness";

export const ORIGIN = "http://127.0.0.1:3000";

const spki = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "der" })
  .toString("base64");
// A TXT record's strings are at most 255 bytes each; longer text (a DKIM key) is split as DNS servers publish it.
const TXT = (text: string): FakeRecord => ({ type: "TXT", data: text.match(/.{1,255}/g) ?? [""] });

/** A domain with SPF, DKIM at selector s1 and an enforced DMARC policy: every check passes. */
export function healthyZone(domain: string): Record<string, FakeRecord[]> {
  return {
    [domain]: [TXT("v=spf1 ip4:192.0.2.0/24 -all")],
    [`_dmarc.${domain}`]: [TXT("v=DMARC1; p=reject; rua=mailto:dmarc@" + domain)],
    [`s1._domainkey.${domain}`]: [TXT(`v=DKIM1; k=rsa; p=${spki}`)],
  };
}

export function publishVerification(
  dns: FakeDnsServer,
  sender: { verification: { name: string; value: string } },
): void {
  dns.setRecords(sender.verification.name, [TXT(sender.verification.value)]);
}

export function useFakeDnsFor(dns: FakeDnsServer): void {
  process.env.SERVICE_DNS_SERVERS = dns.address;
  process.env.SERVICE_DNS_TIMEOUT_MS = "300";
  process.env.SERVICE_DNSBL_DOMAIN_ZONES = "dbl.spamhaus.org";
  process.env.SERVICE_DNSBL_TIMEOUT_MS = "300";
}

export async function signedIn(app: TestApp, email: string): Promise<SessionUser> {
  const u = await ensureUser(app.db, { email });
  return { userId: u.id, email: u.email, name: null };
}

export async function ownWorkspace(app: TestApp, user: SessionUser, plans: string[]) {
  return createWorkspace(app.db, { name: `${user.email}'s`, plans, ownerEmail: user.email, ownerUserId: user.userId });
}

export interface Call {
  user: SessionUser | null;
  workspaceId?: string;
  origin?: string | null;
  headers?: Record<string, string>;
}

export async function senders(method: string, path: string, c: Call, body?: unknown) {
  const headers = new Headers(c.headers);
  if (c.workspaceId) headers.set("x-service-workspace", c.workspaceId);
  if (body !== undefined) headers.set("content-type", "application/json");
  if (method !== "GET" && c.origin !== null) headers.set("origin", c.origin ?? ORIGIN);
  const req = new Request(`${ORIGIN}/api/account/senders${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await handleSendersRequest(req, async () => c.user);
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
