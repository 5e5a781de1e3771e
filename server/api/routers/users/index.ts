// The users router: one account of the workspace as its assessments know it (issue 45, item 2).
import { router } from "../../trpc";
import { getProcedure } from "./get";

export const usersRouter = router({
  get: getProcedure,
});
