// A monitor's alert leaves the service as a signed webhook: `monitor.alert` delivered to a receiver on 127.0.0.1
// with the Standard Webhooks signature recomputed here, `data` holding the monitor, check, severity, before, after
// and the link to its dashboard page; then `monitor.resolved` the same way. Both stores.
import { createHmac } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { runMonitor } from "../../server/monitors/run";
import { runWebhookDeliveriesOnce } from "../../server/webhooks/worker";
import { startWebhookReceiver } from "../fakes/webhook-receiver";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
const dns = await monitorDns({ "shop.test": A() });
const rx = await startWebhookReceiver();
afterAll(() => rx.close());

describe("monitor webhooks", () => {
  it("delivers monitor.alert and monitor.resolved signed, with the monitor, the change and the dashboard link", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const call = api(app, ws.apiKey);
    const hook = (
      await call("POST", "/v1/webhooks", {
        name: "monitors",
        url: rx.url,
        event_types: ["monitor.alert", "monitor.resolved"],
      })
    ).body;
    expect(hook.event_types).toEqual(["monitor.alert", "monitor.resolved"]);
    const m = (
      await call("POST", "/v1/monitors", { name: "Shop", target: "shop.test", checks: ["blocklists"], interval: "1h" })
    ).body;
    await runMonitor(app.db, m.id, { now: new Date("2026-11-03T10:00:00Z") });
    dns.setRecords("shop.test.dbl.spamhaus.org", [{ type: "A", data: "127.0.1.2" }]);
    const run = await runMonitor(app.db, m.id, { now: new Date("2026-11-03T11:00:00Z") });
    await runWebhookDeliveriesOnce(app.db);
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0]!;
    const id = String(got.headers["webhook-id"]);
    const ts = String(got.headers["webhook-timestamp"]);
    const key = Buffer.from(hook.secret.slice("whsec_".length), "base64");
    expect(got.headers["webhook-signature"]).toBe(
      "v1," + createHmac("sha256", key).update(`${id}.${ts}.${got.body}`).digest("base64"),
    );
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({
      type: "monitor.alert",
      request_id: run.runId,
      workspace_id: ws.workspaceId,
      data: {
        alert_id: run.alerts[0]!.id,
        monitor: { id: m.id, name: "Shop", target: "shop.test" },
        check: "blocklists",
        severity: "critical",
        before: { listed_on: [] },
        after: { listed_on: ["dbl.spamhaus.org"] },
        reminder: false,
        url: `http://localhost:3000/dashboard/monitors/${m.id}`,
      },
    });

    dns.removeRecords("shop.test.dbl.spamhaus.org");
    await runMonitor(app.db, m.id, { now: new Date("2026-11-03T12:00:00Z") });
    await runWebhookDeliveriesOnce(app.db);
    expect(rx.received).toHaveLength(2);
    expect(JSON.parse(rx.received[1]!.body)).toMatchObject({
      type: "monitor.resolved",
      data: { check: "blocklists", before: { listed_on: ["dbl.spamhaus.org"] }, after: { listed_on: [] } },
    });
  });

  it("accepts only known event types on a webhook", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await api(app, ws.apiKey)("POST", "/v1/webhooks", {
      name: "x",
      url: rx.url,
      event_types: ["monitor.skipped"],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
  });
});
