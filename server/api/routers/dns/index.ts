// The dns router: its procedures, one file each.
import { router } from "../../trpc";
import { dnsLookupProcedure } from "./dns-lookup";

export const dnsRouter = router({
  dnsLookup: dnsLookupProcedure,
});
