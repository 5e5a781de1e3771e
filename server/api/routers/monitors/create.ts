// POST /monitors: create a monitor.
// The procedure, with its contract (meta, input, output) beside its work.
import { PLAN_TEXT, TLS_EXPIRY_DAYS } from "../../../monitors/limits";
import { createMonitor } from "../../../monitors/monitors";
import { monitorCreateSchema, monitorRecordSchema } from "../../../monitors/schemas";
import { monitorsProcedure, TAGS, ABOUT, change } from "./shared";

export const createProcedure = monitorsProcedure
  .meta({
    errors: ["TARGET_FORBIDDEN", "MONITOR_LIMIT_REACHED", "CONFLICT"],
    openapi: {
      method: "POST",
      path: "/monitors",
      tags: TAGS,
      summary: "Create a monitor",
      description: `Body: \`name\`?, \`target\`, \`checks\` (names, or objects with options: \`{ "type": "dns", "record_types": ["A", "MX"] }\`, \`{ "type": "email_security", "selectors": ["s1"] }\`, \`{ "type": "packages", "packages": [{ "ecosystem": "npm", "name": "lodash", "version": "4.17.20" }] }\`), \`interval\` (default 24h), \`thresholds\`? (\`tls_expiry_days\`: 1 to ${TLS_EXPIRY_DAYS.count} numbers of days from ${TLS_EXPIRY_DAYS.min} to ${TLS_EXPIRY_DAYS.max}, each at most once; default [21, 7]), \`email_alerts\`? (\`{ enabled, recipients }\`: \`owners\` by default, or members' emails; 400 INVALID_REQUEST naming an address that is not a member; sent only when the service has an SMTP server, else the answer says \`email_alerts.available: false\`). The first run is a fixed fraction of the interval away (spread by the monitor's id), then every interval. 400 INVALID_REQUEST for a bad target, an unknown check, a dns, email_security or ct check on an IP address; 400 TARGET_FORBIDDEN for a target that is or resolves to a private, loopback or metadata address (every run's lookups vet it again). A project is watched once: a second monitor with the \`project\` check on the same project is 409 CONFLICT naming the monitor that watches it (so is a PATCH that would make one). Nothing is written or charged on a refusal; creation is an audit event (\`audit.monitor.created\`). ${PLAN_TEXT} ${ABOUT}`,
    },
  })
  .input(monitorCreateSchema)
  .output(monitorRecordSchema)
  .mutation(({ ctx, input }) => createMonitor(ctx.db, { ...change(ctx), monitor: input }));
