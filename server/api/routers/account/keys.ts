// The account router's keys (dashboard only).
// The procedure, with its contract beside its work.
import { listApiKeys } from "../../../keys/keys";
import { workspaceProcedure } from "../../trpc";

export const keysProcedure = workspaceProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.principal.workspaceId));
