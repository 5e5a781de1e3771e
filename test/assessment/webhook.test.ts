import { describe, expect, it } from "vitest";
import { newId } from "../../server/ids";
import { CHROME_UA, CLEAN_IP, HEADLESS_UA, TOR_HOSTING_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

async function subscribedWorkspace() {
  const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
  const hook = await app().db.webhook.create({
    data: { id: newId("wh"), workspaceId: ws.workspaceId, name: "risk", url: "https://hooks.example.test/risk", eventTypes: ["high_risk_assessment"], secret: "whsec_test" },
  });
  return { ...ws, webhookId: hook.id };
}

describe("high-risk webhook enqueue", () => {
  it("a critical assessment queues one delivery whose data is the assessment result", async () => {
    const ws = await subscribedWorkspace();
    const res = await app().request("POST", "/v1/assess", { key: ws.apiKey, body: { event: "login", ip: TOR_HOSTING_IP, user_agent: HEADLESS_UA, email: "a@mailinator.com" } });
    expect(res.status).toBe(200);
    expect(res.body.risk_level).toBe("critical");
    const rows = await app().db.webhookDelivery.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ webhookId: ws.webhookId, eventType: "high_risk_assessment", requestId: res.body.request_id });
    expect(rows[0]!.payload).toMatchObject({ type: "high_risk_assessment", request_id: res.body.request_id, data: { request_id: res.body.request_id, score: 100, decision: "block" } });
  });

  it("a low-risk assessment queues nothing", async () => {
    const ws = await subscribedWorkspace();
    const res = await app().request("POST", "/v1/assess", { key: ws.apiKey, body: { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA } });
    expect(res.body.risk_level).toBe("low");
    expect(await app().db.webhookDelivery.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });
});
