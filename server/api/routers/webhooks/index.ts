// The webhooks router: its procedures, one file each.
import { router } from "../../trpc";
import { createProcedure } from "./create";
import { listProcedure } from "./list";
import { updateProcedure } from "./update";
import { deleteProcedure } from "./delete";
import { deliveriesProcedure } from "./deliveries";
import { sendTestProcedure } from "./send-test";
import { redeliverProcedure } from "./redeliver";

export const webhooksRouter = router({
  create: createProcedure,
  list: listProcedure,
  update: updateProcedure,
  delete: deleteProcedure,
  deliveries: deliveriesProcedure,
  sendTest: sendTestProcedure,
  redeliver: redeliverProcedure,
});
