// GET /ip/{ip}/rdap and GET /domain/{domain}/rdap: registration data from the registry's RDAP server.
import { router } from "../../trpc";
import { ipRdapProcedure } from "./ip-rdap";
import { domainRdapProcedure } from "./domain-rdap";

export const rdapRouter = router({
  ipRdap: ipRdapProcedure,
  domainRdap: domainRdapProcedure,
});
