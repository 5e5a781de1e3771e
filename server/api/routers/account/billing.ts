// The account router's billing (dashboard only).
// The procedure, with its contract beside its work.
import { billingStatus } from "../../../billing/status";
import { workspaceProcedure } from "../../trpc";

/** The billing mode, how to change plans, and the workspace's subscriptions with their state. */
export const billingProcedure = workspaceProcedure.query(({ ctx }) => billingStatus(ctx.db, ctx.principal.workspaceId));
