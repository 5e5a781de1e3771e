// Sender slots, for the dashboard (tRPC) and {account_url}/api/account/senders. No OpenAPI meta: account routes
// are reached with a session, never with an API key under /v1 (spec: keys cannot administer senders).
// Unmetered: monitoring is the sender slots' own service and unlocks no intelligence route.
import { router } from "../../trpc";
import { listProcedure } from "./list";
import { addProcedure } from "./add";
import { verifyProcedure } from "./verify";
import { removeProcedure } from "./remove";

export const sendersRouter = router({
  list: listProcedure,
  add: addProcedure,
  verify: verifyProcedure,
  remove: removeProcedure,
});
