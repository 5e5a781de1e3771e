// Named lists over REST (/v1/lists...) and the dashboard: unmetered, capability `full` like rules (403
// CAPABILITY_REQUIRED on Free). The work is in server/lists; this file only declares the doors.
import { router } from "../../trpc";
import { listProcedure } from "./list";
import { createProcedure } from "./create";
import { getProcedure } from "./get";
import { updateProcedure } from "./update";
import { deleteProcedure } from "./delete";
import { itemsProcedure } from "./items";
import { addItemsProcedure } from "./add-items";
import { deleteItemProcedure } from "./delete-item";

export const listsRouter = router({
  list: listProcedure,
  create: createProcedure,
  get: getProcedure,
  update: updateProcedure,
  delete: deleteProcedure,
  items: itemsProcedure,
  addItems: addItemsProcedure,
  deleteItem: deleteItemProcedure,
});
