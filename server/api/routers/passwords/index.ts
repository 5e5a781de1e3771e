// GET /passwords/range/{prefix}: common passwords, checked without sending them (k-anonymity).
import { router } from "../../trpc";
import { passwordRangeProcedure } from "./range";

export const passwordsRouter = router({
  passwordRange: passwordRangeProcedure,
});
