// POST /blocklists/check: DNS blocklist check.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { checkBlocklists } from "../../../blocklists/check";
import { blocklistCheckResultSchema, type BlocklistCheckResult } from "../../../blocklists/schemas";
import { parseTarget } from "../../../blocklists/targets";
import { meteredProcedure } from "../../trpc";
import { MAX_BLOCKLIST_TARGETS, unansweredTargets } from "./shared";

const blocklistInput = z.object({
  targets: z
    .array(z.string().max(300))
    .min(1, "submit at least one target")
    .max(MAX_BLOCKLIST_TARGETS, `submit at most ${MAX_BLOCKLIST_TARGETS} targets`)
    .superRefine((targets, ctx) => {
      targets.forEach((t, i) => {
        const p = parseTarget(t);
        if ("error" in p) ctx.addIssue({ code: "custom", path: [i], message: p.error });
      });
    })
    .describe("1 to 20 IPv4 addresses, IPv6 addresses or domain names"),
});

/** The spec counts submitted targets: more than one needs bulk, decided on the raw body before validation. */
function submittedTargets(raw: unknown): number {
  const t = (raw as { targets?: unknown } | null | undefined)?.targets;
  return Array.isArray(t) ? t.length : 0;
}

export const blocklistsCheckProcedure = meteredProcedure({
  capability: "full",
  endpoint: "blocklists.check",
  input: blocklistInput,
  needsBulk: (raw) => submittedTargets(raw) > 1,
  // Its units and cost: server/api/charging.ts.
  bulk: "multiple-targets",
  unanswered: (_input, out: BlocklistCheckResult) => unansweredTargets(out.results, "target"),
  history: (input, out: BlocklistCheckResult) => ({
    target: input.targets.length === 1 ? input.targets[0] : `${input.targets.length} targets`,
    summary: {
      targets: out.summary.targets,
      listed: out.summary.listed,
      listedOn: out.results.flatMap((r) => r.listedOn).slice(0, 20),
    },
  }),
})
  .meta({
    openapi: {
      method: "POST",
      path: "/blocklists/check",
      tags: ["Blocklists"],
      summary: "DNS blocklist check",
      description:
        'Checks 1 to 20 targets (IPv4, IPv6 or domain names; body `{"targets": [...]}`) against the configured DNS blocklists: IP lists (SERVICE_DNSBL_IP_ZONES, default zen.spamhaus.org, bl.spamcop.net, b.barracudacentral.org) for addresses, domain lists (SERVICE_DNSBL_DOMAIN_ZONES, default dbl.spamhaus.org, multi.surbl.org) for names, all in parallel with bounded timeouts. Per list: `listed` with each return code and its documented meaning, `not_listed`, `refused` (the operator answered with an error code, such as Spamhaus 127.255.255.254 for queries through public resolvers) or `unavailable`; refused and unavailable never count as listed. Domains are checked as given and as their registrable domain. 400 for no targets, more than 20, or a target that is neither an address nor a domain (no unit). A target for which every list was `unavailable` was not answered: its unit is given back (a ledger row with the reason; the quota headers count without it).',
    },
  })
  .output(blocklistCheckResultSchema)
  .mutation(({ input }) => checkBlocklists(input.targets));
