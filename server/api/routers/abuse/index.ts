// GET /ip/{ip}/abuse and GET /domain/{domain}/abuse: abuse contacts from RDAP (full, 1 unit each).
import { router } from "../../trpc";
import { ipAbuseProcedure } from "./ip-abuse";
import { domainAbuseProcedure } from "./domain-abuse";

export const abuseRouter = router({
  ipAbuse: ipAbuseProcedure,
  domainAbuse: domainAbuseProcedure,
});
