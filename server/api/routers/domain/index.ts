// Domain intelligence, certificate-transparency subdomains and hostname infrastructure. Input that cannot name a
// registrable domain is a 400 from the schema, before any unit is reserved.
import { router } from "../../trpc";
import { domainIntelProcedure } from "./domain-intel";
import { domainSubdomainsProcedure } from "./domain-subdomains";
import { domainInfrastructureProcedure } from "./domain-infrastructure";

export const domainRouter = router({
  domainIntel: domainIntelProcedure,
  domainSubdomains: domainSubdomainsProcedure,
  domainInfrastructure: domainInfrastructureProcedure,
});
