// The `type` filter of GET /v1/events, /v1/events.csv and the dashboard's events procedure: exact types
// (comma-separated) and prefixes ending in a dot, combined with `query`.
import { beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "../../server/audit/audit";
import { recordEvent } from "../../server/events/events";
import type { EventType } from "../../server/events/types";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";
import { dashboardQuery, signedIn } from "./dashboard";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

async function seed(workspaceId: string) {
  const at = (n: number) => ({ createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, n)) });
  const plain = (requestId: string, type: EventType, n: number) =>
    recordEvent(app.db, { workspaceId, requestId, type, ip: "203.0.113.9", data: {} }).then((id) =>
      app.db.event.update({ where: { id }, data: at(n) }),
    );
  await plain("req_a", "assessment", 1);
  await plain("req_l", "link.created", 2);
  const audit = async (type: "audit.key.created" | "audit.rule.updated", requestId: string, n: number) => {
    const id = await recordAudit(app.db, {
      workspaceId,
      type,
      requestId,
      actor: { kind: "operator" },
      target: { kind: "x", id: requestId },
    });
    await app.db.event.update({ where: { id }, data: at(n) });
  };
  await audit("audit.key.created", "req_k", 3);
  await audit("audit.rule.updated", "req_r", 4);
}

const types = (body: any) => body.items.map((e: any) => e.type);

describe("GET /v1/events?type=", () => {
  it.each([
    ["audit.", ["audit.rule.updated", "audit.key.created"]],
    ["audit.key.", ["audit.key.created"]],
    ["assessment", ["assessment"]],
    ["assessment,link.created", ["link.created", "assessment"]],
    ["assessment, audit.rule.", ["audit.rule.updated", "assessment"]],
  ])("type=%s keeps %j", async (type, expected) => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    await seed(ws.workspaceId);
    const res = await app.request("GET", `/v1/events?type=${encodeURIComponent(type)}`, { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(types(res.body)).toEqual(expected);
  });

  it("combines with query and carries the actor", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    await seed(ws.workspaceId);
    const res = await app.request("GET", "/v1/events?type=audit.&query=operator", { key: ws.apiKey });
    expect(res.body.items.map((e: any) => [e.type, e.actor])).toEqual([
      ["audit.rule.updated", "operator"],
      ["audit.key.created", "operator"],
    ]);
    const byIp = await app.request("GET", "/v1/events?type=audit.&query=203.0.113.9", { key: ws.apiKey });
    expect(byIp.body.items).toEqual([]);
  });

  it("refuses a malformed filter with 400 INVALID_REQUEST", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", `/v1/events?type=${encodeURIComponent("audit.;drop")}`, { key: ws.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toContain("type: comma-separated event types");
    expect(res.body.error.message).not.toContain("type: type:");
  });

  // A type the service never writes (a misspelling, `audit` without its dot) answered 200 with an empty page, which
  // reads as "nothing happened"; it is 400 naming the accepted values, on the list and the CSV export alike.
  it.each(["zzzz", "audit", "audit.key.created.", "assessment,link.creatd", "audti."])(
    "refuses type=%s, naming the accepted types",
    async (type) => {
      const ws = await app.seedWorkspace({ plans: ["free"] });
      for (const path of ["/v1/events", "/v1/events.csv"]) {
        const res = await app.request("GET", `${path}?type=${encodeURIComponent(type)}`, { key: ws.apiKey });
        expect(res.status, `${path}: ${res.text}`).toBe(400);
        expect(res.body.error.code).toBe("INVALID_REQUEST");
        expect(res.body.error.message).toMatch(/^type: unknown event types? /);
        expect(res.body.error.message).toContain("assessment, assessment.outcome, audit.plan.changed");
        expect(res.body.error.message).toContain("monitor.alert");
        expect(res.body.error.message).toContain("(assessment., audit., link., monitor., sender., webhook.)");
      }
    },
  );

  it("is documented in the OpenAPI document", async () => {
    const doc = await app.request("GET", "/v1/openapi.json");
    const params = doc.body.paths["/events"].get.parameters.map((p: any) => p.name);
    expect(params).toEqual(expect.arrayContaining(["query", "type", "limit", "cursor"]));
    expect(doc.body.paths["/events.csv"].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(["query", "type"]),
    );
  });
});

describe("GET /v1/events.csv?type=", () => {
  it("exports only the audit trail with type=audit., with the actor column", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    await seed(ws.workspaceId);
    const res = await app.request("GET", "/v1/events.csv?type=audit.", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = res.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,created_at,request_id,type,actor,ip,email,domain,rule,data");
    expect(lines.slice(1).map((l) => l.split(",").slice(2, 5))).toEqual([
      ["req_r", "audit.rule.updated", "operator"],
      ["req_k", "audit.key.created", "operator"],
    ]);
  });
});

describe("the dashboard's events procedure", () => {
  it("takes the same type filter for a signed-in member", async () => {
    const user = await signedIn(app.db, "reader@events.test");
    const ws = await createWorkspace(app.db, {
      name: "dash",
      plans: ["free"],
      ownerEmail: user.email,
      ownerUserId: user.userId,
    });
    await seed(ws.workspaceId);
    const res = await dashboardQuery("workspace.events", { type: "audit.key.,link." }, user, {
      "x-service-workspace": ws.workspaceId,
    });
    expect(res.status).toBe(200);
    expect(types(res.body.result.data)).toEqual(["audit.key.created", "link.created"]);
  });
});
