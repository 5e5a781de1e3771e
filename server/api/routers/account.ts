// Dashboard-only procedures (no REST route): the signed-in user's workspaces, usage, keys, plan and members.
// No procedure sets plans: they come from the operator (`npm run admin -- plan set`) or verified Stripe events.
// Reads are open to every member of the selected workspace; changes need the owner role.
import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKeyOrThrow } from "../../keys/keys";
import { PLAN_SLUGS, PLANS } from "../../plans/catalog";
import { readUsage } from "../../quota/reserve";
import {
  changeMemberRoleOrThrow,
  inviteMember,
  listMembers,
  membershipsOf,
  removeMemberOrThrow,
} from "../../workspaces/members";
import { actorOf } from "../actor";
import { clientAddress } from "../../http/origin";
import { billingStatus } from "../../billing/status";
import { createWorkspace } from "../../workspaces/workspaces";
import { ownerProcedure, router, sessionProcedure, workspaceProcedure } from "../trpc";

export const accountRouter = router({
  me: sessionProcedure.query(async ({ ctx }) => {
    const memberships = await membershipsOf(ctx.db, ctx.sessionUser.userId);
    return {
      user: ctx.sessionUser,
      workspaces: memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role })),
    };
  }),

  createWorkspace: sessionProcedure
    .input(z.object({ name: z.string().trim().min(1).max(100) }))
    .mutation(async ({ ctx, input }) => {
      const ws = await createWorkspace(ctx.db, {
        name: input.name,
        plans: ["free"],
        ownerEmail: ctx.sessionUser.email,
        ownerUserId: ctx.sessionUser.userId,
        actor: {
          kind: "user",
          userId: ctx.sessionUser.userId,
          email: ctx.sessionUser.email,
          ip: clientAddress(ctx.requestHeaders),
          userAgent: ctx.requestHeaders.get("user-agent")?.slice(0, 300) ?? null,
        },
      });
      return { workspaceId: ws.workspaceId, apiKey: ws.apiKey };
    }),

  overview: workspaceProcedure.query(async ({ ctx }) => {
    const { entitlements, workspaceId } = ctx.principal;
    const ws = await ctx.db.workspace.findUniqueOrThrow({
      where: { id: workspaceId },
      select: { id: true, name: true },
    });
    const usage = await readUsage(ctx.db, workspaceId, entitlements.monthlyUnits);
    return {
      workspace: ws,
      role: ctx.principal.kind === "member" ? ctx.principal.role : null,
      entitlements,
      usage: { ...usage, reset: usage.reset.toISOString() },
    };
  }),

  /** The plan catalog (read-only: plans come from the operator or a verified payment, never from this API). */
  plans: workspaceProcedure.query(() => PLAN_SLUGS.map((slug) => PLANS[slug])),

  /** The billing mode, how to change plans, and the workspace's subscriptions with their state. */
  billing: workspaceProcedure.query(({ ctx }) => billingStatus(ctx.db, ctx.principal.workspaceId)),

  keys: workspaceProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.principal.workspaceId)),

  /** A secret key (server side, every route) or a publishable one (only POST /v1/device/check, from the listed web origins). */
  createKey: ownerProcedure
    .input(
      z.object({
        name: z.string().trim().max(100).optional(),
        kind: z.enum(["secret", "publishable"]).default("secret"),
        allowedOrigins: z.array(z.string().max(300)).max(50).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      createApiKey(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        name: input.name,
        kind: input.kind,
        allowedOrigins: input.allowedOrigins,
        actor: actorOf(ctx),
        requestId: ctx.requestId,
      }),
    ),

  revokeKey: ownerProcedure.input(z.object({ keyId: z.string().min(1).max(64) })).mutation(({ ctx, input }) =>
    revokeApiKeyOrThrow(ctx.db, {
      keyId: input.keyId,
      workspaceId: ctx.principal.workspaceId,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
    }),
  ),

  members: workspaceProcedure.query(({ ctx }) => listMembers(ctx.db, ctx.principal.workspaceId)),

  inviteMember: ownerProcedure
    .input(z.object({ email: z.string().trim().max(254), role: z.enum(["owner", "member"]).default("member") }))
    .mutation(({ ctx, input }) =>
      inviteMember(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        email: input.email,
        role: input.role,
        actor: actorOf(ctx),
      }),
    ),

  removeMember: ownerProcedure.input(z.object({ memberId: z.string().min(1).max(64) })).mutation(({ ctx, input }) =>
    removeMemberOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      memberId: input.memberId,
      actor: actorOf(ctx),
    }),
  ),

  /** Owner <-> member; the last owner cannot be demoted. */
  changeMemberRole: ownerProcedure
    .input(z.object({ memberId: z.string().min(1).max(64), role: z.enum(["owner", "member"]) }))
    .mutation(({ ctx, input }) =>
      changeMemberRoleOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        memberId: input.memberId,
        role: input.role,
        actor: actorOf(ctx),
      }),
    ),
});
