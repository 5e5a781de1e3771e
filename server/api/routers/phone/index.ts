// GET /phone/{number}: phone numbers from the numbering plans libphonenumber-js ships.
import { router } from "../../trpc";
import { phoneLookupProcedure } from "./phone-lookup";

export const phoneRouter = router({
  phoneLookup: phoneLookupProcedure,
});
