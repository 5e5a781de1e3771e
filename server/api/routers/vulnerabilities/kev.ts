// GET /vulnerabilities/kev/: search the known-exploited vulnerabilities catalog.
// The procedure, with its contract (meta, input, output) beside its work.
import { kevSearchInput, kevSearchOutput } from "../../../vulnerabilities/api-schemas";
import { searchKev } from "../../../vulnerabilities";
import { meteredProcedure } from "../../trpc";

const KEV_DESCRIPTION = [
  "Search the CISA Known Exploited Vulnerabilities catalog (public domain; the complete catalog ships, version 2025.08.25 with 1,404 records, and refreshes with `npm run admin -- feeds refresh --feed kev`).",
  "Query: `query` (free text, every word must occur), `vendor`, `product` (case-insensitive substrings), `cve` (exact), `cwe` (e.g. CWE-79: entries listing that weakness), `ransomware` (true/known or false/unknown), `added_since` / `added_until` (YYYY-MM-DD, inclusive; an `added_until` before `added_since` is 400 INVALID_REQUEST, nothing consumed), `limit` 1..500 (default 100), `offset` >= 0. Filters combine with AND; newest additions first.",
  "Body: `catalog` {version, releasedAt, count, partial, note, origin (shipped|refreshed), fetchedAt, sourceUrl}; `total`; `limit`; `offset`; `vulnerabilities` [{cveId, vendorProject, product, vulnerabilityName, dateAdded, shortDescription, requiredAction, dueDate, knownRansomwareCampaignUse, notes, cwes}]; `checkedAt`. When `catalog.partial` is true the data in use is a subset of the catalog and `catalog.note` says which part.",
].join("\n\n");

export const kevProcedure = meteredProcedure({
  capability: "vulnerabilities",
  endpoint: "vulnerabilities.kev",
  input: kevSearchInput,
  history: (input, out) => ({
    target: input.query ?? input.cve ?? input.vendor ?? "kev",
    summary: { total: out.total },
  }),
})
  .meta({
    openapi: {
      method: "GET",
      path: "/vulnerabilities/kev/",
      tags: ["Vulnerabilities"],
      summary: "Search the known-exploited vulnerabilities catalog",
      description: KEV_DESCRIPTION,
    },
  })
  .output(kevSearchOutput)
  .query(({ input }) =>
    searchKev({
      query: input.query,
      vendor: input.vendor,
      product: input.product,
      cve: input.cve,
      cwe: input.cwe,
      ransomware: input.ransomware,
      addedSince: input.added_since,
      addedUntil: input.added_until,
      limit: input.limit,
      offset: input.offset,
    }),
  );
