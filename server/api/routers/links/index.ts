// The links router: its procedures, one file each.
import { router } from "../../trpc";
import { createProcedure } from "./create";
import { listProcedure } from "./list";
import { disableProcedure } from "./disable";
import { enableProcedure } from "./enable";

export const linksRouter = router({
  create: createProcedure,
  list: listProcedure,
  disable: disableProcedure,
  enable: enableProcedure,
});
