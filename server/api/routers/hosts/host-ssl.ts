// GET /host/{host}/ssl: TLS certificate summary.
// The procedure, with its contract (meta, input, output) beside its work.
import { getHostSslOrThrow } from "../../../hosts/ssl";
import { sslResultSchema, type SslResult } from "../../../hosts/schemas";
import { assertPublicTargetOrThrow } from "../../../net";
import { meteredProcedure } from "../../trpc";
import { hostInput, SSRF_NOTE } from "./shared";

export const hostSslProcedure = meteredProcedure({
  capability: "full",
  endpoint: "host.ssl",
  input: hostInput,
  preflight: (input) => assertPublicTargetOrThrow(input.host),
  decides: { publicName: (input) => input.host },
  history: (input, out: SslResult) => ({
    target: input.host,
    summary: { valid: out.valid, daysLeft: out.certificate?.daysLeft ?? null, protocol: out.protocol },
  }),
})
  .meta({
    errors: ["TARGET_FORBIDDEN", "DOMAIN_NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/host/{host}/ssl",
      tags: ["Hosts"],
      summary: "TLS certificate summary",
      description: `Connects with TLS (SNI = the host name; port 443 unless \`host:port\`) and summarises the certificate (subject, issuer, SANs, validity and days left, key type and size, signature algorithm, serial, fingerprints), the negotiated protocol and cipher, the chain, whether the chain verifies against the system trust store, and whether the name matches, each with a reason when not. A host that cannot be reached answers 200 with \`connected: false\` and the error. 404 DOMAIN_NOT_FOUND when the name does not resolve; 503 UPSTREAM_UNAVAILABLE when DNS fails. ${SSRF_NOTE}`,
    },
  })
  .output(sslResultSchema)
  .query(({ input }) => getHostSslOrThrow(input.host));
