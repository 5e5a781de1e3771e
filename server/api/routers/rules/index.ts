// The rules router: its procedures, one file each.
import { router } from "../../trpc";
import { listProcedure } from "./list";
import { createProcedure } from "./create";
import { backtestProcedure } from "./backtest";
import { getProcedure } from "./get";
import { updateProcedure } from "./update";
import { deleteProcedure } from "./delete";
import { enablePackProcedure, listPacksProcedure } from "./packs";

export const rulesRouter = router({
  list: listProcedure,
  create: createProcedure,
  backtest: backtestProcedure,
  get: getProcedure,
  update: updateProcedure,
  delete: deleteProcedure,
  packs: listPacksProcedure,
  enablePack: enablePackProcedure,
});
