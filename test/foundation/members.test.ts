import { beforeAll, describe, expect, it } from "vitest";
import { inviteMember, listMembers, removeMemberOrThrow } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("members", () => {
  it("never removes the last owner, even when two owners remove each other at once", async () => {
    const ws = await createWorkspace(app.db, {
      name: "two owners",
      plans: ["suite_starter"],
      ownerEmail: "a@owners.test",
    });
    await inviteMember(app.db, { workspaceId: ws.workspaceId, email: "b@owners.test", role: "owner" });
    const [a, b] = await listMembers(app.db, ws.workspaceId);
    const results = await Promise.allSettled([
      removeMemberOrThrow(app.db, { workspaceId: ws.workspaceId, memberId: a.id }),
      removeMemberOrThrow(app.db, { workspaceId: ws.workspaceId, memberId: b.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ appCode: "CONFLICT" });
    expect((await listMembers(app.db, ws.workspaceId)).filter((m) => m.role === "owner")).toHaveLength(1);
  });

  it("answers another workspace's member as not found", async () => {
    const one = await createWorkspace(app.db, { name: "one", plans: ["free"], ownerEmail: "x@one.test" });
    const two = await createWorkspace(app.db, { name: "two", plans: ["free"], ownerEmail: "y@two.test" });
    const [theirs] = await listMembers(app.db, two.workspaceId);
    await expect(
      removeMemberOrThrow(app.db, { workspaceId: one.workspaceId, memberId: theirs.id }),
    ).rejects.toMatchObject({ appCode: "NOT_FOUND" });
    expect(await listMembers(app.db, two.workspaceId)).toHaveLength(1);
  });
});
