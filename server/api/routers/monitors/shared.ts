// What several procedures of the monitors router share.
import { CHECKS } from "../../../monitors/checks";
import { CHECK_FAILING_TEXT } from "../../../monitors/failing";
import { actorOf } from "../../actor";
import { authenticated } from "../../trpc";

export const monitorsProcedure = authenticated.meta({
  requires: { capability: "full", subject: "Monitors need" },
  freeText: ["name"],
});

export const TAGS = ["Monitors"];

export const ABOUT = `A monitor runs checks on a target (a host, domain, IP address or http(s) URL) every \`interval\` and stores each run; a check whose state changes against the previous run raises an alert with the state before and after: \`monitor.alert\` for a change (severity warning or critical when bad, info when it is only different), a reminder at most daily while it stays bad, and \`monitor.resolved\` when it clears. ${CHECK_FAILING_TEXT} Alerts are events (GET /v1/events?type=monitor.), webhooks (\`monitor.alert\`, \`monitor.resolved\`) and emails to the monitor's recipients when the service has an SMTP server (each with a per-monitor unsubscribe link). Checks: ${Object.values(
  CHECKS,
)
  .map((c) => c.about)
  .join(
    "; ",
  )}. Cost: each run reserves one unit per check whatever its options (a dns check of several record types, or a packages check of several packages, is one unit; a project check, which runs alone, is one unit per package version of the project's latest default-ref scan, shown as \`units_per_run\`) before it starts, like any lookup, and each check's lookups are recorded in lookup history (the check's unit on its first); a check whose lookups were all refused before they ran, or whose first lookup's source was unavailable (503), gives its unit back; a run the allowance cannot pay is skipped, recorded as a run with \`status: skipped\`, and raises one \`monitor.skipped\` alert (delivered to \`monitor.alert\` webhooks with check \`run\`) until runs are paid again.`;

export const change = (
  ctx: Parameters<typeof actorOf>[0] & {
    principal: { workspaceId: string; entitlements: import("../../../plans/catalog").Entitlements };
    requestId: string;
  },
) => ({
  workspaceId: ctx.principal.workspaceId,
  requestId: ctx.requestId,
  actor: actorOf(ctx),
  entitlements: ctx.principal.entitlements,
});
