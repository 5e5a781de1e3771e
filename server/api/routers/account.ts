// Dashboard-only procedures (no REST route): the signed-in user's workspaces, usage, keys, plan and members.
// Reads are open to every member of the selected workspace; changes need the owner role.
import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKeyOrThrow } from "../../keys/keys";
import { PLAN_SLUGS, PLANS } from "../../plans/catalog";
import { readUsage } from "../../quota/reserve";
import { inviteMember, listMembers, membershipsOf, removeMemberOrThrow } from "../../workspaces/members";
import { createWorkspace, setPlans } from "../../workspaces/workspaces";
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
      const ws = await createWorkspace(ctx.db, { name: input.name, plans: ["free"], ownerEmail: ctx.sessionUser.email, ownerUserId: ctx.sessionUser.userId });
      return { workspaceId: ws.workspaceId, apiKey: ws.apiKey };
    }),

  overview: workspaceProcedure.query(async ({ ctx }) => {
    const { entitlements, workspaceId } = ctx.principal;
    const ws = await ctx.db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { id: true, name: true } });
    const usage = await readUsage(ctx.db, workspaceId, entitlements.monthlyUnits);
    return {
      workspace: ws,
      role: ctx.principal.kind === "member" ? ctx.principal.role : null,
      entitlements,
      usage: { ...usage, reset: usage.reset.toISOString() },
    };
  }),

  plans: workspaceProcedure.query(() => PLAN_SLUGS.map((slug) => PLANS[slug])),

  setPlans: ownerProcedure
    .input(z.object({ plans: z.array(z.enum(PLAN_SLUGS)).min(1).max(PLAN_SLUGS.length) }))
    .mutation(({ ctx, input }) => setPlans(ctx.db, { workspaceId: ctx.principal.workspaceId, plans: input.plans })),

  keys: workspaceProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.principal.workspaceId)),

  createKey: ownerProcedure
    .input(z.object({ name: z.string().trim().max(100).optional() }))
    .mutation(({ ctx, input }) => createApiKey(ctx.db, { workspaceId: ctx.principal.workspaceId, name: input.name })),

  revokeKey: ownerProcedure
    .input(z.object({ keyId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => revokeApiKeyOrThrow(ctx.db, { keyId: input.keyId, workspaceId: ctx.principal.workspaceId })),

  members: workspaceProcedure.query(({ ctx }) => listMembers(ctx.db, ctx.principal.workspaceId)),

  inviteMember: ownerProcedure
    .input(z.object({ email: z.string().trim().max(254), role: z.enum(["owner", "member"]).default("member") }))
    .mutation(({ ctx, input }) => inviteMember(ctx.db, { workspaceId: ctx.principal.workspaceId, email: input.email, role: input.role })),

  removeMember: ownerProcedure
    .input(z.object({ memberId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => removeMemberOrThrow(ctx.db, { workspaceId: ctx.principal.workspaceId, memberId: input.memberId })),
});
