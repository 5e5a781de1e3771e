// GET /v1/sources: the data every answer draws on, with its age and refresh state (also /dashboard/sources).
import { router } from "../../trpc";
import { listProcedure } from "./list";

export const sourcesRouter = router({
  list: listProcedure,
});
