// The benchmark's bare reference for /assess (bench/reference-assess.ts) scores what the service scores: the same
// login traffic (account history, failures, a list rule) through both gives the same score, decision and signals
// for every request. Otherwise its ratio would compare the service with some other work.
import { describe, expect, it } from "vitest";
import { loginAt, PARTNER_LIST, PARTNER_RULE, partnerFixtures, partnerNetworks } from "../../bench/assess-fixtures";
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
});
