// GET /ip/{ip} and GET /ip/{ip}/reputation: the same reputation object, answered from feeds held in memory.
import { router } from "../../trpc";
import { ipLookupProcedure } from "./ip-lookup";
import { ipReputationProcedure } from "./ip-reputation";

export const ipRouter = router({
  ipLookup: ipLookupProcedure,
  ipReputation: ipReputationProcedure,
});
