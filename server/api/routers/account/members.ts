// The account router's members (dashboard only).
// The procedure, with its contract beside its work.
import { listMembers } from "../../../workspaces/members";
import { workspaceProcedure } from "../../trpc";

export const membersProcedure = workspaceProcedure.query(({ ctx }) => listMembers(ctx.db, ctx.principal.workspaceId));
