// GET /asn/{asn}: ASN intelligence from the shipped routing tables and the registry's RDAP record.
import { router } from "../../trpc";
import { asnLookupProcedure } from "./asn-lookup";

export const asnRouter = router({
  asnLookup: asnLookupProcedure,
});
