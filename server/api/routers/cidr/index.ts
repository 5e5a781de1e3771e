// The cidr router: its procedures, one file each.
import { router } from "../../trpc";
import { cidrCheckProcedure } from "./cidr-check";

export const cidrRouter = router({
  cidrCheck: cidrCheckProcedure,
});
