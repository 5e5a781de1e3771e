// The benchmark's bare reference for /assess (bench/reference-assess.ts) scores what the service scores: the same
// login traffic (account history, failures, a list rule) through both gives the same score, decision and signals
// for every request. Otherwise its ratio would compare the service with some other work. Since issue 45 the scenarios
// send phone numbers and (checkout) card attempts: the reference computes the phone, linked-account and card-testing
// facts as the service does, from its counters in memory.
import { describe, expect, it } from "vitest";
import {
  CARD_TESTING_EVERY,
  checkoutAt,
  loginAt,
  PARTNER_LIST,
  PARTNER_RULE,
  partnerFixtures,
  partnerNetworks,
} from "../../bench/assess-fixtures";
import { referenceAssess, referenceWorkspace } from "../../bench/reference-assess";
import { useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

describe("the /assess benchmark reference", () => {
  it("answers a login flow with the service's scores, decisions and signals", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_agency"] });
    const call = async (path: string, body: unknown) => {
      const res = await a.request("POST", path, { key: ws.apiKey, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const list = await call("/v1/lists", { name: PARTNER_LIST, kind: "ip" });
    await call(`/v1/lists/${list.id}/items`, { items: partnerNetworks().map((value) => ({ value })) });
    await call("/v1/rules", { priority: 0, ...PARTNER_RULE });
    const reference = referenceWorkspace(partnerFixtures());

    // Three users, many attempts each: baselines form, failures accumulate, devices and addresses change.
    const users = 3;
    const indices = Array.from({ length: 45 }, (_, k) => (k % users) + users * 100 * Math.floor(k / users));
    const brief = (r: { score: number; decision: string; signals: { code: string; weight: number }[] }) => ({
      score: r.score,
      decision: r.decision,
      signals: r.signals.map((s) => `${s.code}:${s.weight}`).sort(),
    });
    const seen = new Set<string>();
    for (const i of indices) {
      const body = { ...loginAt(i), user_id: `user-${i % users}` };
      const service = await call("/v1/assess", body);
      const bare = await referenceAssess(reference, body);
      expect(brief(bare), `request ${i}`).toEqual(brief(service));
      for (const s of service.signals) seen.add(s.code);
    }
    // The flow reached the account history and the failure counters, not only the address.
    expect([...seen].some((c) => c.startsWith("user_"))).toBe(true);
  });

  it("gives the rules the service's facts, the address's counts included, on login traffic from shared addresses", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_agency"] });
    const reference = referenceWorkspace();
    // Eight users over the scenario's addresses, one attempt in seven failed, then sign-ups with their own emails from
    // two addresses: the addresses see several accounts, failed accounts and emails within the hour.
    const bodies = [
      ...Array.from({ length: 60 }, (_, i) => ({ ...loginAt(i), user_id: `user-${i % 8}` })),
      ...Array.from({ length: 12 }, (_, k) => ({
        event: "signup",
        ip: `203.0.113.${k % 2}`,
        email: `person${k % 5}@example.com`,
      })),
    ];
    const compared = new Set<string>();
    for (const [i, body] of bodies.entries()) {
      const res = await a.request("POST", "/v1/assess", { key: ws.apiKey, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const stored = await a.db.event.findFirst({
        where: { workspaceId: ws.workspaceId, type: "assessment" },
        orderBy: { createdAt: "desc" },
      });
      const facts = (stored?.data as { facts: Record<string, unknown> }).facts;
      const out: { facts?: Record<string, unknown> } = {};
      await referenceAssess(reference, body, out);
      expect(out.facts, `request ${i}`).toEqual(facts);
      for (const [name, value] of Object.entries(facts)) if (typeof value === "number" && value > 0) compared.add(name);
    }
    // The address's counts were reached, not only zeros.
    for (const name of ["velocity.ip_1h", "velocity.ip_emails_1h", "ip.failed_users_1h", "ip.failed_logins_1h"])
      expect(compared, name).toContain(name);
  });

  it("counts an email's velocity by its mailbox, as the service does: five spellings of one Gmail inbox are one", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_agency"] });
    const reference = referenceWorkspace(partnerFixtures());
    const spellings = [
      "alice@gmail.com",
      "a.l.i.c.e+1@gmail.com",
      "ALICE+2@googlemail.com",
      "al.ice@gmail.com",
      "alice+x@gmail.com",
    ];
    const counts: boolean[] = [];
    for (const [k, email] of spellings.entries()) {
      const body = { event: "signup", ip: `203.0.113.${10 + k}`, email };
      const res = await a.request("POST", "/v1/assess", { key: ws.apiKey, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const bare = await referenceAssess(reference, body);
      expect(bare.score, email).toBe(res.body.score);
      expect(bare.signals.map((s) => s.code).sort(), email).toEqual(
        (res.body.signals as { code: string }[]).map((s) => s.code).sort(),
      );
      counts.push((res.body.signals as { code: string }[]).some((x) => x.code === "velocity_email"));
    }
    // The email velocity tier (3 earlier assessments of the mailbox) is reached at the fourth spelling, in both.
    expect(counts).toEqual([false, false, false, true, true]);
  });

  it("answers the checkout scenario's phones and card attempts with the service's scores, signals and facts", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_agency"] });
    const reference = referenceWorkspace();
    // Two card testers' bursts, shoppers (one sharing a device, one a card, one a phone with the shopper before, an
    // invalid and a national number), shoppers coming back, and one shopper's card declined three times.
    const burst = (from: number) => Array.from({ length: 15 }, (_, k) => from + k);
    const indices = [
      ...burst(0),
      ...Array.from({ length: 30 }, (_, k) => 15 + k),
      100,
      ...burst(CARD_TESTING_EVERY),
      415,
      434,
      435,
      441,
      442,
      3618,
      7218,
    ];
    const seen = new Set<string>();
    for (const i of indices) {
      const body = checkoutAt(i);
      expect(JSON.stringify(body.payment)).not.toMatch(/\d{9}/);
      for (const code of await sameAnswer(a, ws.apiKey, reference, body, `request ${i}`)) seen.add(code);
    }
    // The traffic reached every identity and payment fact, so a reference that ignored them would differ.
    for (const code of ["linked_accounts", "card_testing", "card_declines", "phone_invalid", "phone_country_mismatch"])
      expect(seen, code).toContain(code);
  });

  it("answers the login scenario's phone numbers as the service does, accounts linked by a shared number", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_agency"] });
    const list = await a.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: PARTNER_LIST, kind: "ip" } });
    await a.request("POST", `/v1/lists/${list.body.id}/items`, {
      key: ws.apiKey,
      body: { items: partnerNetworks().map((value) => ({ value })) },
    });
    await a.request("POST", "/v1/rules", { key: ws.apiKey, body: { priority: 0, ...PARTNER_RULE } });
    const reference = referenceWorkspace(partnerFixtures());
    // Users 0 and 1 share a phone number (1 gives 0's), 3 gives an invalid one, 6 a UK mobile, 9 a national number
    // read in the address's country, 19 one read in phone_country; each logs in twice, 7 and 14 fail.
    const indices = [0, 1, 3, 6, 7, 9, 14, 19, 500, 501, 503, 506, 509, 519, 1000, 1001];
    const seen = new Set<string>();
    for (const i of indices) {
      const body = loginAt(i);
      for (const code of await sameAnswer(a, ws.apiKey, reference, body, `request ${i}`)) seen.add(code);
    }
    for (const code of ["linked_accounts", "phone_invalid", "phone_country_mismatch"])
      expect(seen, code).toContain(code);
  });
});

interface AssessBody {
  score: number;
  decision: string;
  signals: { code: string; weight: number; reason: string }[];
  phone: unknown;
  linked_accounts: unknown;
  payment: unknown;
  account: unknown;
}

/**
 * Sends `body` to the service and to the reference and holds them to the same answer (full, below); the service's
 * signal codes.
 */
async function sameAnswer(
  a: ReturnType<typeof app>,
  key: string,
  reference: Parameters<typeof referenceAssess>[0],
  body: Parameters<typeof referenceAssess>[1],
  label: string,
): Promise<string[]> {
  const res = await a.request("POST", "/v1/assess", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const service = res.body as AssessBody;
  const bare = (await referenceAssess(reference, body)) as unknown as AssessBody;
  expect(full(bare), label).toEqual(full(service));
  return service.signals.map((s) => s.code);
}

/** What the two must agree on: the score, the decision, each signal with its reason, the phone, links and payment. */
const full = (r: AssessBody) => ({
  score: r.score,
  decision: r.decision,
  signals: r.signals.map((s) => `${s.code}:${s.weight}: ${s.reason}`).sort(),
  phone: r.phone,
  linked_accounts: r.linked_accounts,
  payment: r.payment,
});
