// POST /device/check: device diagnostic.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { diagnoseDevice } from "../../../device/diagnose";
import { deviceDiagnosisSchema, deviceSignalsSchema, type DeviceDiagnosis } from "../../../device/schemas";
import { DEVICE_WEIGHTS } from "../../../device/weights";
import { clientAddress } from "../../../http/origin";
import { parseIpStrict } from "../../../net/ip";
import { ipAddress } from "../../schemas";
import { meteredProcedure } from "../../trpc";

const WEIGHTS = Object.entries(DEVICE_WEIGHTS)
  .map(([code, w]) => `\`${code}\` +${w}`)
  .join(", ");

const DESCRIPTION = `Diagnoses a browser from the signals the device script collects (include \`/device.js\` in your page; it posts \`{ device }\` to the endpoint you choose, normally your backend, which forwards it here with its key). A page may also call it directly with a publishable key (\`pk_live_…\`, made by a workspace owner on the dashboard's API keys page with the web origins allowed to use it): the device script with the attributes \`data-publishable-key="pk_live_…"\` and \`data-endpoint\` set to this route's full URL posts the signals here and hands the page the diagnosis (\`ServiceDevice.ready\`, the \`service-device-diagnosis\` event); send its \`device_id\` to your backend for POST /assess. A publishable key works only on this route (403 FORBIDDEN elsewhere), only from a page on one of its origins (the CORS preflight is answered for those; any other origin or no Origin is 403 ORIGIN_FORBIDDEN) and at most SERVICE_PUBLISHABLE_RATE_LIMIT checks per client IP per SERVICE_PUBLISHABLE_RATE_WINDOW_SECONDS (429 RATE_LIMITED with Retry-After); refusals cost nothing. With a publishable key the IP compared is the connection's (a page cannot choose it; \`ip\` in the body is ignored), and \`email\` and \`user_id\` come from the page, so they count in velocity only as far as you trust your page. Answers the device id (derived from the script's visitor id, stable for one browser), an automation verdict (\`automated\` when navigator.webdriver is true, the in-page bot detector fires or the user agent names an automation tool; \`suspicious\` with two or more headless markers) with reasons, consistency checks (time zone against the IP's location when \`ip\` is given, user agent against client hints and navigator.platform, languages), per-device velocity (distinct accounts, emails and IPs seen with the device in this workspace within SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES) and the risk contribution: the sum of ${WEIGHTS}. The same \`device\` object is accepted by POST /assess.`;

export const checkProcedure = meteredProcedure({
  capability: "full",
  endpoint: "device.check",
  input: z.object({
    device: deviceSignalsSchema,
    ip: ipAddress.optional().describe("The visitor's IP address (your server sees it), for the time-zone check"),
    email: z.string().trim().max(320).optional().describe("The account's email, counted in per-device velocity"),
    user_id: z.string().trim().min(1).max(256).optional().describe("Your account id, counted in per-device velocity"),
  }),
  history: (_input, out: DeviceDiagnosis) => ({
    target: out.device_id,
    summary: { verdict: out.automation.verdict, score: out.risk.score },
  }),
})
  // A publishable key's refusals (server/keys/publishable.ts): another route 403 FORBIDDEN, over its per-IP limit 429.
  .meta({
    openapi: {
      method: "POST",
      path: "/device/check",
      tags: ["Device and CAPTCHA"],
      summary: "Device diagnostic",
      description: DESCRIPTION,
    },
    errors: ["FORBIDDEN", "RATE_LIMITED"],
  })
  .output(deviceDiagnosisSchema)
  .mutation(({ ctx, input }) => {
    // On the dashboard the visitor is the signed-in user, and with a publishable key the visitor's own browser is
    // calling: either way the connection's address is the visitor's. A page cannot choose the address its
    // time zone is checked against, so a publishable key's `ip` is ignored.
    const fromBrowser =
      ctx.via === "dashboard" || (ctx.principal.kind === "api_key" && ctx.principal.publishable === true);
    const fromHeaders = fromBrowser ? clientAddress(ctx.requestHeaders) : null;
    const own = fromHeaders && parseIpStrict(fromHeaders) ? parseIpStrict(fromHeaders)!.address : null;
    const ip = ctx.principal.kind === "api_key" && ctx.principal.publishable ? own : (input.ip ?? own);
    return diagnoseDevice(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      device: input.device,
      ip,
      email: input.email?.toLowerCase() ?? null,
      userId: input.user_id ?? null,
    });
  });
