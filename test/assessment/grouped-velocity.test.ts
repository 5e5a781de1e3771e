// Concurrent assessments of one workspace read their velocity counts together (server/assessment/velocity.ts): one
// statement for a group, yet each assessment gets exactly the counts it would have got alone. The statements are
// counted by the database itself: a sequence advanced once per statement through the read's own `alsoRead` hook.
import { describe, expect, it } from "vitest";
import { velocitySignals } from "../../server/assessment/velocity";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

const OTHER_IP = "73.162.1.2";
const UNSEEN_IP = "73.162.1.3";

describe("grouped velocity reads", () => {
  it("12 concurrent reads of one workspace go in fewer statements, each with its own counts", async () => {
    const a = app();
    const ws = await a.seedWorkspace({ plans: ["suite_business"] });
    const assess = (body: Record<string, unknown>) =>
      a.request("POST", "/v1/assess", { key: ws.apiKey, body: { event: "login", user_agent: CHROME_UA, ...body } });
    // History: CLEAN_IP three times (twice as user u-1, once failed as u-2), OTHER_IP once; UNSEEN_IP never.
    for (const body of [
      { ip: CLEAN_IP, user_id: "u-1", device_id: "dev-1" },
      { ip: CLEAN_IP, user_id: "u-1", device_id: "dev-1" },
      { ip: CLEAN_IP, user_id: "u-2", status: "failed" },
      { ip: OTHER_IP, email: "someone@example.com" },
    ])
      expect((await assess(body)).status).toBe(200);

    const keys = [
      { ip: CLEAN_IP, email: null, deviceId: "dev-1", userId: "u-1", subject: "user:u-1" },
      {
        ip: OTHER_IP,
        email: "someone@example.com",
        deviceId: null,
        userId: null,
        subject: "email:someone@example.com",
      },
      { ip: UNSEEN_IP, email: null, deviceId: null, userId: "u-2", subject: "user:u-2" },
    ];
    const now = new Date();
    const read = (k: (typeof keys)[number], alsoRead: Record<string, string> = {}) =>
      velocitySignals(a.db, { workspaceId: ws.workspaceId, ...k, now }, alsoRead);
    const alone: Awaited<ReturnType<typeof read>>[] = [];
    for (const k of keys) alone.push(await read(k));
    const fact = (v: (typeof alone)[number], name: string) => (v.facts as Record<string, unknown>)[name];
    expect(alone.map((v) => fact(v, "velocity.ip_1h"))).toEqual([3, 1, 0]);
    expect(fact(alone[0]!, "velocity.user_1h")).toBe(2);
    // u-2's failed attempt (from CLEAN_IP) is its own, whatever address it comes from now.
    expect(alone[2]!.row.acct_failed_times).toHaveLength(1);
    expect(Number(alone[2]!.row.ip_failed_1h)).toBe(0);

    await a.db.$executeRawUnsafe(`CREATE SEQUENCE velocity_statements`);
    try {
      const tick = { tick: `nextval('velocity_statements')` };
      const together = await Promise.all(Array.from({ length: 12 }, (_, i) => read(keys[i % 3]!, tick)));
      together.forEach((v, i) => {
        const lone = alone[i % 3]!;
        expect(v.facts).toEqual(lone.facts);
        expect(v.signals).toEqual(lone.signals);
        expect({ ...v.row, tick: undefined }).toEqual({ ...lone.row, tick: undefined });
      });
      // Every read got its statement's tick; fewer distinct ticks than reads means grouped statements.
      const ticks = new Set(together.map((v) => String(v.also.tick)));
      expect(together.every((v) => v.also.tick !== null && v.also.tick !== undefined)).toBe(true);
      expect(ticks.size).toBeGreaterThan(0);
      expect(ticks.size).toBeLessThan(12);
      const [{ last }] = await a.db.$queryRawUnsafe<{ last: bigint }[]>(
        `SELECT last_value AS last FROM velocity_statements`,
      );
      expect(Number(last)).toBe(ticks.size);
    } finally {
      await a.db.$executeRawUnsafe(`DROP SEQUENCE velocity_statements`);
    }
  });
});
