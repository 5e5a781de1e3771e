// GET /sources: list the data sources.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { dataSources } from "../../../feeds/public-status";
import { authenticated } from "../../trpc";

const sourceSchema = z.object({
  name: z.string().describe("The feed's name, as answers' `sources` and `privacy.matches[].feed` name it"),
  description: z.string(),
  entries: z.number().int().describe("Entries (ranges, domains, records) in the data in use"),
  origin: z
    .enum(["shipped", "refreshed"])
    .describe("`shipped`: the dated snapshot in the release; `refreshed`: downloaded from the live source since"),
  fetched_at: z
    .string()
    .nullable()
    .describe("When the data in use was published or fetched (ISO 8601); null when the feed has never held data"),
  age_seconds: z.number().int().nullable().describe("Seconds since `fetched_at`"),
  license: z.string(),
  attribution: z.string().nullable(),
  refresh: z.object({
    status: z
      .enum(["ok", "failing", "off", "snapshot"])
      .describe(
        "`ok`: refreshes itself on its cadence; `failing`: the last refresh failed and the previous data is kept while it is retried with backoff; `off`: refresh disabled by the operator; `snapshot`: no live source exists, the data changes with a release",
      ),
    every_seconds: z
      .number()
      .int()
      .nullable()
      .describe(
        "Cadence (Tor exits hourly; Spamhaus, cloud, VPN, relay and KEV daily; crawlers, monitors, email lists, public suffixes, RDAP and ASN weekly)",
      ),
    next_run_at: z.string().nullable(),
    last_refreshed_at: z.string().nullable().describe("Last successful scheduled refresh"),
    last_failed_at: z
      .string()
      .nullable()
      .describe("When the current failure streak's last attempt failed; null unless `failing`"),
    last_error: z
      .string()
      .nullable()
      .describe(
        "Why the last refresh failed, in words (e.g. `the source answered HTTP 503`, `the source could not be reached`); null unless `failing`",
      ),
  }),
});

export const listProcedure = authenticated
  .meta({
    openapi: {
      method: "GET",
      path: "/sources",
      tags: ["Data sources"],
      summary: "List the data sources",
      description:
        "Every data feed the lookups and assessments draw on (IP reputation and privacy lists, ASN tables, email lists, public suffixes, RDAP bootstrap, KEV): entries, age, origin, licence, and whether it refreshes itself and when. A failed refresh never removes data: the previous copy stays in use.",
    },
  })
  .input(z.object({}))
  .output(z.object({ sources: z.array(sourceSchema) }))
  .query(async ({ ctx }) => ({ sources: await dataSources(ctx.db) }));
