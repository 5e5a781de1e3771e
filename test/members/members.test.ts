// Included members end to end through the dashboard's tRPC endpoint (tRPC over HTTP, real database): the plan's member
// figure on invitation, exclusion of later members after a downgrade (lookups refused, pages still readable),
// owner-only role changes with the last-owner rule, and an audit event for each change with its actor.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../server/api/context";
import { ensureUser, inviteMember } from "../../server/workspaces/members";
import { createWorkspace, setPlans } from "../../server/workspaces/workspaces";
import { call as dashboardCall } from "../dashboard/call";
import { createTestApp } from "../harness";

const app = await createTestApp();

async function signedIn(email: string): Promise<SessionUser> {
  const u = await ensureUser(app.db, { email });
  return { userId: u.id, email: u.email, name: null };
}

async function ownWorkspace(user: SessionUser, plans: string[]) {
  return (
    await createWorkspace(app.db, { name: `${user.email}'s`, plans, ownerEmail: user.email, ownerUserId: user.userId })
  ).workspaceId;
}

/** One dashboard call as `user` in workspace `ws` (test/dashboard/call.ts). */
const call = (path: string, input: unknown, user: SessionUser, ws: string, mutation = false) =>
  dashboardCall({ user, workspaceId: ws }, path, input, mutation ? "mutation" : "query");

const invite = (owner: SessionUser, ws: string, email: string, role = "member") =>
  call("account.inviteMember", { email, role }, owner, ws, true);

describe("included members", () => {
  it("refuses an invitation beyond the plan's members with 409 MEMBER_LIMIT_REACHED, owners and invitations counted", async () => {
    const owner = await signedIn("limit-owner@members.test");
    const ws = await ownWorkspace(owner, ["suite_starter"]); // 3 members
    expect((await invite(owner, ws, "two@members.test")).status).toBe(200);
    expect((await invite(owner, ws, "three@members.test")).status).toBe(200);
    const fourth = await invite(owner, ws, "four@members.test");
    expect(fourth).toMatchObject({ status: 409, code: "MEMBER_LIMIT_REACHED" });
    expect(fourth.message).toBe(
      "This workspace's plan includes 3 members (owners count, invitations too); remove one or ask for a plan with more to invite another.",
    );
    expect(await app.db.member.count({ where: { workspaceId: ws } })).toBe(3);
    const free = await ownWorkspace(await signedIn("free-owner@members.test"), ["free"]);
    const freeOwner = await signedIn("free-owner@members.test");
    expect(await invite(freeOwner, free, "nobody@members.test")).toMatchObject({
      status: 409,
      code: "MEMBER_LIMIT_REACHED",
    });
  });

  it("says in words that a person was already invited, or is already a member", async () => {
    const owner = await signedIn("dup-owner@members.test");
    const ws = await ownWorkspace(owner, ["suite_business"]);
    await invite(owner, ws, "pending@members.test");
    const again = await invite(owner, ws, "Pending@members.test");
    expect(again).toMatchObject({ status: 409, code: "CONFLICT" });
    expect(again.message).toBe(
      "pending@members.test has already been invited; the invitation is waiting for them to sign in with that email.",
    );
    await invite(owner, ws, "joined@members.test");
    await signedIn("joined@members.test");
    expect((await invite(owner, ws, "joined@members.test")).message).toBe(
      "joined@members.test is already a member of this workspace.",
    );
  });

  it("after a downgrade keeps later members listed but refuses their lookups (403) until capacity returns", async () => {
    const owner = await signedIn("down-owner@members.test");
    const ws = await ownWorkspace(owner, ["suite_business"]); // 10 members
    for (const e of ["early@members.test", "middle@members.test", "late@members.test"]) await invite(owner, ws, e);
    const early = await signedIn("early@members.test");
    await signedIn("middle@members.test");
    const late = await signedIn("late@members.test");
    const lookup = (who: SessionUser) => call("geo.ipGeo", { ip: "8.8.8.8" }, who, ws);
    expect((await lookup(late)).status).toBe(200);

    await setPlans(app.db, { workspaceId: ws, plans: ["suite_starter"] }); // 3: the owner and the two earliest
    expect((await lookup(early)).status).toBe(200);
    const refused = await lookup(late);
    expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect(refused.message).toBe(
      "The workspace's plan includes 3 members (owners count) and earlier members fill them; an owner can remove a member or ask for a plan with more. Until then you can read this workspace but not run dashboard lookups.",
    );
    const used = await app.used(ws);

    // Plan and members pages stay readable, and say who is not included and why; the refusal cost nothing.
    expect((await call("account.overview", undefined, late, ws)).status).toBe(200);
    const list = await call("account.members", undefined, late, ws);
    expect(list.status).toBe(200);
    expect(list.data.map((m: any) => [m.email, m.included])).toEqual([
      ["down-owner@members.test", true],
      ["early@members.test", true],
      ["middle@members.test", true],
      ["late@members.test", false],
    ]);
    expect(list.data[3].notIncludedReason).toMatch(/^The workspace's plan includes 3 members \(owners count\)/);
    expect(list.data[0].notIncludedReason).toBeNull();
    expect(await app.used(ws)).toBe(used);

    await setPlans(app.db, { workspaceId: ws, plans: ["free"] }); // 1: only the owner
    expect((await lookup(early)).status).toBe(403);
    expect((await lookup(owner)).status).toBe(200);

    await setPlans(app.db, { workspaceId: ws, plans: ["suite_business"] }); // capacity returns
    expect((await lookup(early)).status).toBe(200);
    expect((await lookup(late)).status).toBe(200);
  });

  it("lets a removal make room for the next member without a plan change", async () => {
    const owner = await signedIn("room-owner@members.test");
    const ws = await ownWorkspace(owner, ["suite_business"]);
    const first = await invite(owner, ws, "first@members.test");
    await invite(owner, ws, "second@members.test");
    await signedIn("first@members.test");
    const second = await signedIn("second@members.test");
    await setPlans(app.db, { workspaceId: ws, plans: ["lookups_developer"] }); // 3 members
    await invite(owner, ws, "third@members.test").then((r) => expect(r.code).toBe("MEMBER_LIMIT_REACHED"));
    await setPlans(app.db, { workspaceId: ws, plans: ["email"] }); // 1 member
    expect((await call("geo.ipGeo", { ip: "8.8.8.8" }, second, ws)).status).toBe(403);
    await setPlans(app.db, { workspaceId: ws, plans: ["suite_starter"] });
    expect((await call("account.removeMember", { memberId: first.data.id }, owner, ws, true)).status).toBe(200);
    expect((await call("geo.ipGeo", { ip: "8.8.8.8" }, second, ws)).status).toBe(200);
  });

  it("includes the earliest joined members first and never excludes an owner", async () => {
    const owner = await signedIn("order-owner@members.test");
    const ws = await ownWorkspace(owner, ["suite_business"]);
    await invite(owner, ws, "second-owner@members.test", "owner");
    await invite(owner, ws, "pending-first@members.test");
    await invite(owner, ws, "joined-later@members.test");
    const joined = await signedIn("joined-later@members.test");
    const secondOwner = await signedIn("second-owner@members.test");
    await setPlans(app.db, { workspaceId: ws, plans: ["suite_starter"] }); // 3: two owners and one more
    const list = (await call("account.members", undefined, owner, ws)).data;
    expect(Object.fromEntries(list.map((m: any) => [m.email, m.included]))).toEqual({
      "order-owner@members.test": true,
      "second-owner@members.test": true,
      "pending-first@members.test": false,
      "joined-later@members.test": true,
    });
    await setPlans(app.db, { workspaceId: ws, plans: ["free"] }); // 1, yet both owners stay included
    expect((await call("geo.ipGeo", { ip: "8.8.8.8" }, secondOwner, ws)).status).toBe(200);
    expect((await call("geo.ipGeo", { ip: "8.8.8.8" }, joined, ws)).status).toBe(403);
  });
});

describe("member roles and the audit trail", () => {
  it("lets an owner make a member an owner and back, recording before and after with the actor", async () => {
    const owner = await signedIn("role-owner@members.test");
    const ws = await ownWorkspace(owner, ["suite_starter"]);
    const invited = await invite(owner, ws, "colleague@members.test");
    const colleague = await signedIn("colleague@members.test");
    expect((await call("account.createKey", {}, colleague, ws, true)).status).toBe(403);

    const up = await call("account.changeMemberRole", { memberId: invited.data.id, role: "owner" }, owner, ws, true);
    expect(up.status).toBe(200);
    expect(up.data).toMatchObject({ email: "colleague@members.test", role: "owner", included: true });
    expect((await call("account.createKey", {}, colleague, ws, true)).status).toBe(200);
    const down = await call("account.changeMemberRole", { memberId: invited.data.id, role: "member" }, owner, ws, true);
    expect(down.data.role).toBe("member");

    const events = await app.db.event.findMany({
      where: { workspaceId: ws, type: "audit.member.role_changed" },
      orderBy: { createdAt: "asc" },
    });
    expect(events).toHaveLength(2);
    expect(events[0].actor).toBe(`user:${owner.userId}`);
    expect(events[0].email).toBe("role-owner@members.test");
    expect(events[0].data).toMatchObject({
      target: { kind: "member", id: invited.data.id, label: "colleague@members.test" },
      before: { role: "member" },
      after: { role: "owner" },
    });
    expect(events[1].data).toMatchObject({ before: { role: "owner" }, after: { role: "member" } });
  });

  it("refuses to demote the last owner (409) and lets only owners change roles (403)", async () => {
    const owner = await signedIn("last-owner@members.test");
    const ws = await ownWorkspace(owner, ["suite_starter"]);
    const self = (await call("account.members", undefined, owner, ws)).data[0];
    const demote = await call("account.changeMemberRole", { memberId: self.id, role: "member" }, owner, ws, true);
    expect(demote).toMatchObject({
      status: 409,
      code: "CONFLICT",
      message: "The last owner cannot become a member; make someone else an owner first.",
    });
    const m = await invite(owner, ws, "plain@members.test");
    const plain = await signedIn("plain@members.test");
    expect(
      await call("account.changeMemberRole", { memberId: m.data.id, role: "owner" }, plain, ws, true),
    ).toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect((await app.db.member.findUniqueOrThrow({ where: { id: m.data.id } })).role).toBe("member");
    expect(await app.db.event.count({ where: { workspaceId: ws, type: "audit.member.role_changed" } })).toBe(0);
  });

  it("answers another workspace's member as 404 when changing a role", async () => {
    const a = await signedIn("tenant-a@members.test");
    const b = await signedIn("tenant-b@members.test");
    const wsA = await ownWorkspace(a, ["suite_starter"]);
    const wsB = await ownWorkspace(b, ["suite_starter"]);
    const theirs = (await call("account.members", undefined, b, wsB)).data[0];
    expect(await call("account.changeMemberRole", { memberId: theirs.id, role: "member" }, a, wsA, true)).toMatchObject(
      { status: 404, code: "NOT_FOUND" },
    );
  });

  it("records invitations and removals with the acting user, IP and user agent", async () => {
    const owner = await signedIn("audit-owner@members.test");
    const ws = await ownWorkspace(owner, ["suite_starter"]);
    const invited = await invite(owner, ws, "short-stay@members.test");
    expect((await call("account.removeMember", { memberId: invited.data.id }, owner, ws, true)).status).toBe(200);
    const events = await app.db.event.findMany({
      where: { workspaceId: ws, type: { startsWith: "audit.member." } },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => e.type)).toEqual(["audit.member.invited", "audit.member.removed"]);
    expect(events.every((e) => e.actor === `user:${owner.userId}`)).toBe(true);
    expect(events[0].data).toMatchObject({
      target: { id: invited.data.id, label: "short-stay@members.test" },
      before: null,
      after: { email: "short-stay@members.test", role: "member" },
    });
    expect(events[1].data).toMatchObject({ before: { email: "short-stay@members.test", role: "member" }, after: null });
    // A refused invitation changes nothing and records nothing.
    await setPlans(app.db, { workspaceId: ws, plans: ["free"] });
    expect((await invite(owner, ws, "refused@members.test")).status).toBe(409);
    expect(await app.db.event.count({ where: { workspaceId: ws, type: "audit.member.invited" } })).toBe(1);
  });

  it("keeps the inviteMember domain function usable without a request (attributed to the system)", async () => {
    const ws = await createWorkspace(app.db, { name: "seeded", plans: ["suite_starter"] });
    await inviteMember(app.db, { workspaceId: ws.workspaceId, email: "seeded@members.test" });
    const e = await app.db.event.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId, type: "audit.member.invited" },
    });
    expect(e.actor).toBe("system");
  });
});
