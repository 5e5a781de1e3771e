// What several procedures of the lists router share (schemas, helpers), or what other modules import from it.
import { actorOf } from "../../actor";
import { authenticated } from "../../trpc";

export const listsProcedure = authenticated.meta({
  requires: { capability: "full", subject: "Lists need" },
  freeText: ["description", "items.note", "items.value", "csv"],
});

export const TAGS = ["Lists"];

export const ABOUT =
  'A named list holds values of one kind (ip: addresses and CIDR ranges; email; email_domain; user: user_id; device: device_id; country: alpha-2; asn) that rules test with `in_list("name", value)`, e.g. `in_list("blocked_emails", email.address)` or `in_list("office_networks", ip.address)` (an ip list matches an address listed or inside a listed range; an IPv4-mapped address, ::ffff:a.b.c.d, is the IPv4 address it names, whether listed or assessed).';

export const change = (
  ctx: Parameters<typeof actorOf>[0] & { principal: { workspaceId: string }; requestId: string },
) => ({
  workspaceId: ctx.principal.workspaceId,
  requestId: ctx.requestId,
  actor: actorOf(ctx),
});
