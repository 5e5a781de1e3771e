// The same monitor procedures through the dashboard's tRPC with a member's session: create, run, read the
// timeline; another workspace's monitor is NOT_FOUND and Free is refused with 403 CAPABILITY_REQUIRED there too.
import { describe, expect, it } from "vitest";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp } from "../harness";
import { A, monitorDns } from "./helpers";

const app = await createTestApp();
await monitorDns({ "site.test": A() });

describe("monitors in the dashboard", () => {
  it("creates, runs and reads a monitor with a session; other workspaces and Free are refused", async () => {
    const { member } = await ownerAndMember(app.db, "monitors", ["suite_business"]);
    const created = await call(
      member,
      "monitors.create",
      { name: "Site", target: "site.test", checks: [{ type: "dns", record_types: ["A"] }] },
      "mutation",
    );
    expect(created.status).toBe(200);
    const run = await call(member, "monitors.run", { id: created.data.id }, "mutation");
    expect(run.data).toMatchObject({ status: "completed", units: 1 });
    const runs = await call(member, "monitors.runs", { id: created.data.id }, "query");
    expect(runs.data.items).toHaveLength(1);
    const events = await app.db.event.findMany({ where: { type: "audit.monitor.created" } });
    expect(events.map((e) => e.data)).toHaveLength(1);
    const other = await ownerAndMember(app.db, "monitors-other", ["suite_business"]);
    expect((await call(other.owner, "monitors.get", { id: created.data.id }, "query")).code).toBe("NOT_FOUND");
    const free = await ownerAndMember(app.db, "monitors-free", ["free"]);
    const refused = await call(free.owner, "monitors.list", {}, "query");
    expect(refused.status).toBe(403);
    expect(refused.code).toBe("CAPABILITY_REQUIRED");
  });
});
