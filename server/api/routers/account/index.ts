// Dashboard-only procedures (no REST route): the signed-in user's workspaces, usage, keys, plan and members.
// No procedure sets plans: they come from the operator (`npm run admin -- plan set`) or verified Stripe events.
// Reads are open to every member of the selected workspace; changes need the owner role.
import { router } from "../../trpc";
import { meProcedure } from "./me";
import { createWorkspaceProcedure } from "./create-workspace";
import { overviewProcedure } from "./overview";
import { plansProcedure } from "./plans";
import { billingProcedure } from "./billing";
import { keysProcedure } from "./keys";
import { createKeyProcedure } from "./create-key";
import { revokeKeyProcedure } from "./revoke-key";
import { membersProcedure } from "./members";
import { inviteMemberProcedure } from "./invite-member";
import { removeMemberProcedure } from "./remove-member";
import { changeMemberRoleProcedure } from "./change-member-role";

export const accountRouter = router({
  me: meProcedure,
  createWorkspace: createWorkspaceProcedure,
  overview: overviewProcedure,
  plans: plansProcedure,
  billing: billingProcedure,
  keys: keysProcedure,
  createKey: createKeyProcedure,
  revokeKey: revokeKeyProcedure,
  members: membersProcedure,
  inviteMember: inviteMemberProcedure,
  removeMember: removeMemberProcedure,
  changeMemberRole: changeMemberRoleProcedure,
});
