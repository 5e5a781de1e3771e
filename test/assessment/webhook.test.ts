import { describe, expect, it } from "vitest";
import { newId } from "../../server/ids";
import { CHROME_UA, CLEAN_IP, HEADLESS_UA, TOR_HOSTING_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

async function subscribedWorkspace() {
  const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
  const hook = await app().db.webhook.create({
    data: {
      id: newId("wh"),
      workspaceId: ws.workspaceId,
      name: "risk",
      url: "https://hooks.example.test/risk",
      eventTypes: ["high_risk_assessment"],
      secret: "whsec_test",
    },
  });
  return { ...ws, webhookId: hook.id };
}

describe("high-risk webhook enqueue", () => {
  it("a critical assessment queues one delivery whose data is the assessment result", async () => {
    const ws = await subscribedWorkspace();
    const res = await app().request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: TOR_HOSTING_IP, user_agent: HEADLESS_UA, email: "a@mailinator.com" },
    });
    expect(res.status).toBe(200);
    expect(res.body.risk_level).toBe("critical");
    const rows = await app().db.webhookDelivery.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      webhookId: ws.webhookId,
      eventType: "high_risk_assessment",
      requestId: res.body.request_id,
    });
    expect(rows[0]!.payload).toMatchObject({
      type: "high_risk_assessment",
      request_id: res.body.request_id,
      data: { request_id: res.body.request_id, score: 100, decision: "block" },
    });
  });

  it("a workspace starts getting critical assessments once a webhook takes them, and only such a webhook", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const critical = () =>
      app().request("POST", "/v1/assess", {
        key: ws.apiKey,
        body: { event: "login", ip: TOR_HOSTING_IP, user_agent: HEADLESS_UA, email: "a@mailinator.com" },
      });
    const hook = (eventTypes: string[]) =>
      app().db.webhook.create({
        data: {
          id: newId("wh"),
          workspaceId: ws.workspaceId,
          name: eventTypes.join(" "),
          url: "https://hooks.example.test/risk",
          eventTypes,
          secret: "whsec_test",
        },
      });
    expect((await critical()).body.risk_level).toBe("critical");
    await hook(["case.resolved", "monitor.alert"]);
    expect((await critical()).body.risk_level).toBe("critical");
    expect(await app().db.webhookDelivery.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);

    const taker = await hook(["monitor.alert", "high_risk_assessment"]);
    const res = await critical();
    const rows = await app().db.webhookDelivery.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ webhookId: taker.id, requestId: res.body.request_id });
    expect(rows[0]!.payload).toMatchObject({ data: { request_id: res.body.request_id, risk_level: "critical" } });
  });

  it("a low-risk assessment queues nothing", async () => {
    const ws = await subscribedWorkspace();
    const res = await app().request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA },
    });
    expect(res.body.risk_level).toBe("low");
    expect(await app().db.webhookDelivery.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("records the event and its deliveries in one transaction: when a delivery row cannot be written, neither is the event", async () => {
    const ws = await subscribedWorkspace();
    const db = app().db;
    // A real database failure on the second write, for this workspace only (a trigger, not a mock).
    await db.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION refuse_delivery() RETURNS trigger AS $$ BEGIN IF NEW."workspaceId" = '${ws.workspaceId}' THEN RAISE EXCEPTION 'delivery store unavailable'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_delivery BEFORE INSERT ON "WebhookDelivery" FOR EACH ROW EXECUTE FUNCTION refuse_delivery()`,
    );
    try {
      const res = await app().request("POST", "/v1/assess", {
        key: ws.apiKey,
        body: { event: "login", ip: TOR_HOSTING_IP, user_agent: HEADLESS_UA, email: "a@mailinator.com" },
      });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(await db.event.count({ where: { workspaceId: ws.workspaceId, type: "assessment" } })).toBe(0);
      expect(await db.webhookDelivery.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_delivery ON "WebhookDelivery"`);
    }
    const ok = await app().request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: TOR_HOSTING_IP, user_agent: HEADLESS_UA, email: "a@mailinator.com" },
    });
    expect(ok.status).toBe(200);
    expect(await db.event.count({ where: { workspaceId: ws.workspaceId, type: "assessment" } })).toBe(1);
    expect(
      await db.webhookDelivery.count({ where: { workspaceId: ws.workspaceId, requestId: ok.body.request_id } }),
    ).toBe(1);
  });
});
