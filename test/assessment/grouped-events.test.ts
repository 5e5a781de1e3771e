// Concurrent assessments are written grouped (server/assessment/record.ts): fewer statements than requests, yet
// every event is stored before its answer, so the next assessment counts them all; a high-risk assessment's
// deliveries and a review decision's case are written in the same statement as its event.
import { describe, expect, it } from "vitest";
import { newId } from "../../server/ids";
import { countingInsertStatements } from "../insert-statements";
import { CHROME_UA, CLEAN_IP, HEADLESS_UA, TOR_HOSTING_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

/** Runs `work` while the INSERT statements on "Event" are counted. */
const countingEventStatements = <T>(a: ReturnType<typeof app>, work: () => Promise<T>) =>
  countingInsertStatements(a.db, "Event", work);

describe("grouped assessment events", () => {
  it("20 concurrent assessments store 20 events in fewer statements, and the next one counts all 20", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_business"] });
    const body = { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA, device_id: "dev-grouped-1" };
    const { statements, result: answers } = await countingEventStatements(a, () =>
      Promise.all(Array.from({ length: 20 }, () => a.request("POST", "/v1/assess", { key: ws.apiKey, body }))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(20);
    const stored = await a.db.event.findMany({
      where: { workspaceId: ws.workspaceId, type: "assessment" },
      select: { requestId: true, ip: true, data: true },
    });
    expect(stored.map((e) => e.requestId).sort()).toEqual(answers.map((r) => r.body.request_id).sort());
    expect(
      stored.every((e) => e.ip === CLEAN_IP && (e.data as { device_id?: string }).device_id === "dev-grouped-1"),
    ).toBe(true);
    const next = await a.request("POST", "/v1/assess", { key: ws.apiKey, body });
    expect(next.status).toBe(200);
    const event = await a.db.event.findFirst({
      where: { workspaceId: ws.workspaceId, requestId: next.body.request_id },
    });
    expect((event!.data as { facts: Record<string, unknown> }).facts["velocity.ip_1h"]).toBe(20);
    expect((event!.data as { facts: Record<string, unknown> }).facts["velocity.device_1h"]).toBe(20);
  });

  it("a row the database refuses fails only its own request; the rest of its group is stored", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_business"] });
    const body = (device: string) => ({ event: "login", ip: CLEAN_IP, user_agent: CHROME_UA, device_id: device });
    await a.db.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION refuse_poison() RETURNS trigger AS $$ BEGIN IF NEW."data"->>'device_id' = 'dev-poison' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await a.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_poison BEFORE INSERT ON "Event" FOR EACH ROW EXECUTE FUNCTION refuse_poison()`,
    );
    let answers: Awaited<ReturnType<typeof a.request>>[];
    try {
      const devices = ["dev-a", "dev-b", "dev-poison", "dev-c", "dev-d", "dev-e"];
      answers = await Promise.all(
        devices.map((d) => a.request("POST", "/v1/assess", { key: ws.apiKey, body: body(d) })),
      );
    } finally {
      await a.db.$executeRawUnsafe(`DROP TRIGGER refuse_poison ON "Event"`);
    }
    expect(answers.map((r) => r.status)).toEqual([200, 200, 500, 200, 200, 200]);
    const stored = await a.db.event.findMany({
      where: { workspaceId: ws.workspaceId, type: "assessment" },
      select: { data: true },
    });
    expect(stored.map((e) => (e.data as { device_id: string }).device_id).sort()).toEqual([
      "dev-a",
      "dev-b",
      "dev-c",
      "dev-d",
      "dev-e",
    ]);
    // The address's counters count the five stored once each: the failed group wrote none of them, and the refused
    // row's own write left none either.
    const minutes = await a.db.velocityCount.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(minutes.map((m) => m.key)).toEqual(minutes.map(() => `ip:${CLEAN_IP}`));
    expect(minutes.reduce((n, m) => n + m.count, 0)).toBe(5);
  });

  it("writes each critical assessment's deliveries and each review's case with the events, grouped", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_agency"] });
    for (const name of ["risk-a", "risk-b"])
      await a.db.webhook.create({
        data: {
          id: newId("wh"),
          workspaceId: ws.workspaceId,
          name,
          url: `https://hooks.example.test/${name}`,
          eventTypes: ["high_risk_assessment"],
          secret: "whsec_test",
        },
      });
    const rule = await a.request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: { priority: 0, name: "Review", action: "review", expression: 'user_id == "review-me"' },
    });
    expect(rule.status).toBe(200);
    const critical = { event: "login", ip: TOR_HOSTING_IP, user_agent: HEADLESS_UA, email: "a@mailinator.com" };
    const review = { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA, user_id: "review-me" };
    const { statements, result: answers } = await countingEventStatements(a, () =>
      Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          a.request("POST", "/v1/assess", { key: ws.apiKey, body: i % 2 ? critical : review }),
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(16).fill(200));
    expect(statements).toBeLessThan(16);
    const criticalIds = answers.filter((_, i) => i % 2).map((r) => r.body.request_id as string);
    const reviewIds = answers.filter((_, i) => i % 2 === 0).map((r) => r.body.request_id as string);
    expect(answers.filter((_, i) => i % 2).every((r) => r.body.risk_level === "critical")).toBe(true);
    expect(answers.filter((_, i) => i % 2 === 0).every((r) => r.body.decision === "review")).toBe(true);

    const deliveries = await a.db.webhookDelivery.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(deliveries).toHaveLength(16);
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(16);
    expect(deliveries.every((d) => /^msg_[A-Za-z0-9_-]{16}$/.test(d.id) && d.status === "pending")).toBe(true);
    expect([...new Set(deliveries.map((d) => d.requestId))].sort()).toEqual([...criticalIds].sort());
    const one = deliveries.find((d) => d.requestId === criticalIds[0])!;
    expect(one.payload).toMatchObject({
      type: "high_risk_assessment",
      request_id: criticalIds[0],
      workspace_id: ws.workspaceId,
      data: { request_id: criticalIds[0], risk_level: "critical" },
    });
    const event = await a.db.event.findFirst({ where: { workspaceId: ws.workspaceId, requestId: criticalIds[0] } });
    expect((one.payload as { created_at: string }).created_at).toBe(event!.createdAt.toISOString());

    const cases = await a.db.reviewCase.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(cases.map((c) => c.requestId).sort()).toEqual([...reviewIds].sort());
    expect(cases.every((c) => c.status === "open" && c.subject === "user:review-me" && c.decision === "review")).toBe(
      true,
    );
  });
});
