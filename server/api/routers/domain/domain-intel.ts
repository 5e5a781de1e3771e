// GET /domain/{domain}: domain intelligence.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getDomainIntelOrThrow } from "../../../domain/overview";
import { domainIntelSchema, type DomainIntel } from "../../../domain/schemas";
import { meteredProcedure } from "../../trpc";
import { registrableDomain } from "./shared";

export const domainIntelProcedure = meteredProcedure({
  capability: "full",
  endpoint: "domain",
  input: z.object({ domain: registrableDomain }),
  // A special-use name has no registration, DNS or reputation to look up: answered free, as its sub-routes do.
  decides: { publicName: (input) => input.domain },
  history: (input, out: DomainIntel) => ({
    target: out.domain,
    summary: { score: out.risk.score, level: out.risk.level, exists: out.exists },
  }),
})
  .meta({
    openapi: {
      method: "GET",
      path: "/domain/{domain}",
      tags: ["Domains"],
      summary: "Domain intelligence",
      description:
        "The registrable domain (Public Suffix List aware, private suffixes such as github.io included), registration data and age from RDAP, a DNS summary (A, AAAA, MX, NS, TXT), the email authentication summary (SPF, DMARC, DKIM), disposable and free-provider flags, domain blocklist status, and a 0-100 risk score with the reasons that moved it. Parts whose source is unavailable are null with a reason (and never raise the score); the answer is never a 503 because the offline parts always stand. A domain that does not exist answers 200 with `exists: false`. Every part names its source and when it was fetched.",
    },
  })
  .output(domainIntelSchema)
  .query(({ input }) => getDomainIntelOrThrow(input.domain));
