// GET /host/{host}/status: server status.
// The procedure, with its contract (meta, input, output) beside its work.
import { getHostStatusOrThrow } from "../../../hosts/status";
import { statusResultSchema, type StatusResult } from "../../../hosts/schemas";
import { assertPublicTargetOrThrow, isBadHttpPort, parseHostAndPort, targetForbidden } from "../../../net";
import { meteredProcedure } from "../../trpc";
import { hostInput, SSRF_NOTE } from "./shared";

export const hostStatusProcedure = meteredProcedure({
  capability: "full",
  endpoint: "host.status",
  input: hostInput,
  preflight: async (input) => {
    const port = parseHostAndPort(input.host)?.port;
    if (port && isBadHttpPort(port)) throw targetForbidden(`port ${port} is not an HTTP port`);
    await assertPublicTargetOrThrow(input.host);
  },
  decides: { publicName: (input) => input.host },
  history: (input, out: StatusResult) => ({
    target: input.host,
    summary: { status: out.status, reachable: out.reachable },
  }),
})
  .meta({
    errors: ["TARGET_FORBIDDEN", "DOMAIN_NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/host/{host}/status",
      tags: ["Hosts"],
      summary: "Server status",
      description: `Requests \`https://{host}/\` (falling back to \`http://\` when the server does not speak TLS, or when port 443 is closed and no port was given) and reports the status, timing (DNS, connect, TLS, time to first byte, total; milliseconds), the redirect chain, the TLS outcome and notable headers (server, HSTS, CSP, X-Frame-Options, ...) with the security headers that are missing. Certificate problems do not stop the request; they are reported under \`tls\`. 404 DOMAIN_NOT_FOUND when the name does not resolve. ${SSRF_NOTE}`,
    },
  })
  .output(statusResultSchema)
  .query(({ input }) => getHostStatusOrThrow(input.host));
