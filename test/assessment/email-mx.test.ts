import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDnsServer } from "../fakes/dns-server";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();
let dns: Awaited<ReturnType<typeof startFakeDnsServer>>;
const previousServers = process.env.SERVICE_DNS_SERVERS;

beforeAll(async () => {
  dns = await startFakeDnsServer({
    records: { "mail-ok.example": [{ type: "MX", data: { preference: 10, exchange: "mx.mail-ok.example" } }] },
  });
  process.env.SERVICE_DNS_SERVERS = dns.address;
  // A generous budget, so a busy test machine does not turn a real answer into "unavailable".
  process.env.SERVICE_ASSESS_MX_TIMEOUT_MS = "3000";
});
afterAll(async () => {
  process.env.SERVICE_DNS_SERVERS = previousServers;
  delete process.env.SERVICE_ASSESS_MX_TIMEOUT_MS;
  await dns.close();
});

const assess = async (email: string) => {
  const ws = await app().seedWorkspace();
  return app().request("POST", "/v1/assess", {
    key: ws.apiKey,
    body: { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA, email },
  });
};

describe("email mail acceptance in assessments", () => {
  it("a domain with MX records adds nothing", async () => {
    const res = await assess("ann@mail-ok.example");
    expect(res.body.email.mx).toBe("present");
    expect(res.body.signals).toEqual([]);
    expect(res.body.sources.map((s: { name: string }) => s.name)).toContain("dns");
  });

  it("a domain that does not exist is email_undeliverable", async () => {
    const res = await assess("ann@no-such-domain.example");
    expect(res.body.email.mx).toBe("domain_not_found");
    expect(res.body.signals).toEqual([
      expect.objectContaining({ code: "email_undeliverable", weight: 30, evidence: ["dns"] }),
    ]);
  });

  it("a resolver slower than the budget leaves mx unavailable and the request unscored and fast", async () => {
    process.env.SERVICE_ASSESS_MX_TIMEOUT_MS = "100";
    dns.setFailure("slow-mail.example", "timeout");
    const started = Date.now();
    const res = await assess("ann@slow-mail.example");
    expect(res.status).toBe(200);
    expect(res.body.email.mx).toBe("unavailable");
    expect(res.body.signals).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
