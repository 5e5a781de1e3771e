// The assessment router: its procedures, one file each.
import { router } from "../../trpc";
import { assessProcedure } from "./assess";
import { outcomeProcedure } from "./outcome";

export const assessmentRouter = router({
  assess: assessProcedure,
  outcome: outcomeProcedure,
});
