// Host TLS, host status and the online check. Every target passes the SSRF guard in `preflight`, before a unit is
// reserved, so a refused target costs nothing; the connection itself vets again (DNS can change in between).
import { z } from "zod";
import { getHostSslOrThrow } from "../../hosts/ssl";
import { getHostStatusOrThrow } from "../../hosts/status";
import { sslResultSchema, statusResultSchema, type SslResult, type StatusResult } from "../../hosts/schemas";
import {
  assertPublicTargetOrThrow,
  isBadHttpPort,
  parseFetchUrlOrThrow,
  parseHostAndPort,
  parseTargetUrl,
  targetForbidden,
} from "../../net";
import {
  onlineCheckRateLimit,
  onlineCheckRateWindowSeconds,
  onlineCheckResultSchema,
  runOnlineCheck,
  type OnlineCheckResult,
} from "../../online-check";
import { meteredProcedure, router } from "../trpc";

const hostInput = z.object({
  host: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .refine((h) => parseHostAndPort(h) !== null, {
      message: "must be a host name or IP address, optionally with :port (IPv6 in brackets)",
    })
    .describe("Host name or IP address, optionally with :port (default 443); IPv6 in brackets when a port is given"),
});

const onlineCheckInput = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .refine((u) => parseTargetUrl(u) !== null, { message: "must be an absolute http(s) URL without credentials" })
    .describe("Absolute http(s) URL to check"),
});

const SSRF_NOTE =
  "The target must be on the public internet: a host that is, or resolves to, a loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved or cloud-metadata address (in any spelling, IPv4-mapped IPv6 included) is refused with 400 TARGET_FORBIDDEN before any unit is reserved. Redirects are vetted hop by hop; a redirect to a forbidden address is not followed and is reported in the answer (the unit counts).";

export const hostsRouter = router({
  hostSsl: meteredProcedure({
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
    .query(({ input }) => getHostSslOrThrow(input.host)),

  hostStatus: meteredProcedure({
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
    .query(({ input }) => getHostStatusOrThrow(input.host)),

  onlineCheck: meteredProcedure({
    capability: "full",
    endpoint: "online-check",
    input: onlineCheckInput,
    rateLimit: {
      name: "online-check",
      limit: onlineCheckRateLimit,
      windowSeconds: onlineCheckRateWindowSeconds,
      what: "online checks",
    },
    preflight: async (input) => {
      parseFetchUrlOrThrow(input.url);
      await assertPublicTargetOrThrow(input.url);
    },
    history: (input, out: OnlineCheckResult) => ({
      target: input.url,
      summary: { online: out.online, up: out.upLocations, of: out.totalLocations },
    }),
  })
    .meta({
      errors: ["TARGET_FORBIDDEN"],
      openapi: {
        method: "POST",
        path: "/online-check",
        tags: ["Hosts"],
        summary: "Global reachability check",
        description: `Requests the URL from each configured probe location (SERVICE_PROBE_LOCATIONS; this server by default) in parallel and reports, per location, whether a response arrived, the status, timing and the error. \`online\` is true when at least one location got a status below 500. Every probe is bounded by a timeout, so the answer comes within seconds. Burst-limited per workspace. ${SSRF_NOTE}`,
      },
    })
    .output(onlineCheckResultSchema)
    .mutation(({ input }) => runOnlineCheck(input.url)),
});
