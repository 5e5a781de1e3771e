// Concurrent assessments write their events grouped (server/events/events.ts recordEventGrouped): fewer
// statements than requests, yet every event is stored before its answer, so the next assessment counts them all.
import { describe, expect, it } from "vitest";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

describe("grouped assessment events", () => {
  it("20 concurrent assessments store 20 events in fewer statements, and the next one counts all 20", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_business"] });
    const body = { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA, device_id: "dev-grouped-1" };
    await a.db.$executeRawUnsafe(`CREATE TABLE event_statements (n int)`);
    await a.db.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION count_event_statements() RETURNS trigger AS $$ BEGIN INSERT INTO event_statements VALUES (1); RETURN NULL; END $$ LANGUAGE plpgsql`,
    );
    await a.db.$executeRawUnsafe(
      `CREATE TRIGGER count_event_statements AFTER INSERT ON "Event" FOR EACH STATEMENT EXECUTE FUNCTION count_event_statements()`,
    );
    let statements: number;
    let answers: Awaited<ReturnType<typeof a.request>>[];
    try {
      answers = await Promise.all(
        Array.from({ length: 20 }, () => a.request("POST", "/v1/assess", { key: ws.apiKey, body })),
      );
      statements = Number(
        (await a.db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM event_statements`))[0]!.n,
      );
    } finally {
      await a.db.$executeRawUnsafe(`DROP TRIGGER count_event_statements ON "Event"`);
      await a.db.$executeRawUnsafe(`DROP TABLE event_statements`);
    }
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
  });
});
