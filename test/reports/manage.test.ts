// Renaming and deleting saved reports through the dashboard's tRPC endpoint with a real database: owners and the
// report's author may, other members may not; each change is an audit event; other workspaces' reports are unknown.
import { describe, expect, it } from "vitest";
import { inviteMember, ensureUser } from "../../server/workspaces/members";
import { call, ownerAndMember, type Seat } from "../dashboard/call";
import { createTestApp } from "../harness";

const app = await createTestApp();

async function save(seat: Seat, title: string) {
  const r = await call(seat, "reports.create", { title, report: { score: 3 } }, "mutation");
  expect(r.status, `${r.code}: ${r.message}`).toBe(200);
  return r.data.id as string;
}
const titles = async (seat: Seat) =>
  ((await call(seat, "reports.list", { limit: 50 }, "query")).data.items as { title: string }[]).map((r) => r.title);

describe("saved report rename and delete", () => {
  it("lets the author rename and delete, with audit events", async () => {
    const { member } = await ownerAndMember(app.db, "rpt-author", ["suite_starter"]);
    const id = await save(member, "first");
    const renamed = await call(member, "reports.rename", { id, title: "  renamed  " }, "mutation");
    expect(renamed.status).toBe(200);
    expect(await titles(member)).toEqual(["renamed"]);
    expect((await call(member, "reports.delete", { id }, "mutation")).status).toBe(200);
    expect(await titles(member)).toEqual([]);
    const audit = await app.db.event.findMany({
      where: { workspaceId: member.workspaceId, type: { startsWith: "audit.report." } },
      orderBy: { id: "asc" },
    });
    expect(audit.map((e) => e.type)).toEqual(["audit.report.renamed", "audit.report.deleted"]);
    expect((audit[0].data as any).before).toEqual({ title: "first" });
    expect((audit[0].data as any).after).toEqual({ title: "renamed" });
    expect(audit[0].actor).toBe(`user:${member.user.userId}`);
  });

  it("deletes a report once when the deletion is sent several times at once; the others are 404, never 500", async () => {
    // On PostgreSQL the deletions overlap: each read the row before the first one's delete committed.
    const { member } = await ownerAndMember(app.db, "rpt-twice", ["suite_starter"]);
    const id = await save(member, "twice");
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(member, "reports.delete", { id }, "mutation")),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    const id2 = await save(member, "renamed while deleted");
    const mixed = await Promise.all([
      ...Array.from({ length: 4 }, () => call(member, "reports.rename", { id: id2, title: "new" }, "mutation")),
      ...Array.from({ length: 4 }, () => call(member, "reports.delete", { id: id2 }, "mutation")),
    ]);
    const statuses = mixed.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 404),
      statuses.join(","),
    ).toBe(true);
  });

  it("lets an owner change a member's report, but not another member", async () => {
    const { owner, member } = await ownerAndMember(app.db, "rpt-owner", ["suite_starter"]);
    const email = `other-${Math.random().toString(36).slice(2)}@dash.test`;
    await inviteMember(app.db, { workspaceId: owner.workspaceId, email, role: "member" });
    const u = await ensureUser(app.db, { email });
    const other: Seat = { user: { userId: u.id, email, name: null }, workspaceId: owner.workspaceId };
    const id = await save(member, "member's");
    const refused = await call(other, "reports.rename", { id, title: "mine now" }, "mutation");
    expect(refused.status).toBe(403);
    expect(refused.code).toBe("FORBIDDEN");
    expect((await call(other, "reports.delete", { id }, "mutation")).status).toBe(403);
    expect(await titles(owner)).toEqual(["member's"]);
    expect((await call(owner, "reports.rename", { id, title: "by owner" }, "mutation")).status).toBe(200);
    expect((await call(owner, "reports.delete", { id }, "mutation")).status).toBe(200);
    expect(await titles(owner)).toEqual([]);
  });

  it("treats another workspace's report and an empty title as bad input, changing nothing", async () => {
    const a = await ownerAndMember(app.db, "rpt-a", ["suite_starter"]);
    const b = await ownerAndMember(app.db, "rpt-b", ["suite_starter"]);
    const id = await save(a.owner, "kept");
    const cross = await call(b.owner, "reports.delete", { id }, "mutation");
    expect(cross.status).toBe(404);
    expect((await call(a.owner, "reports.rename", { id, title: "   " }, "mutation")).status).toBe(400);
    expect(await titles(a.owner)).toEqual(["kept"]);
  });
});
