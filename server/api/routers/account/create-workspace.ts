// The account router's createWorkspace (dashboard only).
// The procedure, with its contract beside its work.
import { z } from "zod";
import { clientAddress } from "../../../http/origin";
import { createWorkspace } from "../../../workspaces/workspaces";
import { sessionProcedure } from "../../trpc";

export const createWorkspaceProcedure = sessionProcedure
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
  });
