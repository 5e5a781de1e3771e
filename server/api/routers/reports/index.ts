// Saved fraud reports, for the dashboard (tRPC) and {account_url}/api/account/reports. No OpenAPI meta: these
// are account routes reached with a session, never with an API key under /v1.
import { router } from "../../trpc";
import { createProcedure } from "./create";
import { listProcedure } from "./list";
import { renameProcedure } from "./rename";
import { deleteProcedure } from "./delete";

export const reportsRouter = router({
  create: createProcedure,
  list: listProcedure,
  rename: renameProcedure,
  delete: deleteProcedure,
});
