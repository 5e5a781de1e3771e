// Sample requests for every registered /v1 route, so table-driven suites can run against all of them.
import { appRouter } from "../../server/api/root";
import { buildRouteTable, type RestRoute } from "../../server/api/rest/routes";
import { errorCodesOf } from "../../server/api/contract";

const PARAM_SAMPLES: Record<string, string> = {
  ip: "8.8.8.8",
  asn: "15169",
  domain: "example.com",
  host: "example.com",
  package: "left-pad",
  ecosystem: "npm",
  coordinate: "left-pad",
  cveId: "CVE-2021-44228",
  id: "wh_doesnotexist",
  number: "+447400123456",
  prefix: "5BAA6",
};

const BODY_SAMPLES: Record<string, unknown> = {
  "/assess": { event: "signup", ip: "8.8.8.8" },
  "/email/check": { email: "someone@example.com" },
  "/online-check": { url: "https://example.com" },
  "/blocklists/check": { targets: ["203.0.113.7"] },
  "/cidr/check": { cidr: "203.0.113.0/30" },
  "/captcha/test": { provider: "turnstile", token: "XXXX.DUMMY.TOKEN" },
  "/v1/captcha/test": { provider: "turnstile", token: "XXXX.DUMMY.TOKEN" },
  "/go/links": { url: "https://example.com/" },
  "/rules": {
    name: "block test range",
    action: "block",
    conditions: [{ field: "ip", op: "cidr", value: "203.0.113.0/24" }],
  },
  "/webhooks": { name: "hook", url: "https://example.com/hook", event_types: ["high_risk_assessment"] },
};

const QUERY_SAMPLES: Record<string, string> = {
  "/dns/lookup": "?domain=example.com&type=A",
  "/email/security": "?domain=example.com",
};

export interface RouteSample {
  route: RestRoute;
  method: string;
  path: string;
  body?: unknown;
  capability: string | null;
  metered: boolean;
  /** The key is optional (anonymous use allowed), so a missing key is not refused. */
  keyOptional: boolean;
  /** Needs the webhooks entitlement (contract `requires`). */
  webhooks: boolean;
  /** Every code the route's contract says it can answer (server/api/contract.ts). */
  errors: string[];
}

export function routeSamples(): RouteSample[] {
  const metaByProc = new Map<string, any>();
  const walk = (procs: Record<string, any>) => {
    for (const [path, p] of Object.entries(procs)) metaByProc.set(path, p._def?.meta);
  };
  walk(appRouter._def.procedures as Record<string, any>);
  return buildRouteTable(appRouter).map((route) => {
    const filled = route.template.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(PARAM_SAMPLES[name] ?? "x"),
    );
    const meta = metaByProc.get(route.procedurePath);
    return {
      route,
      method: route.method,
      path: `/v1${filled}${QUERY_SAMPLES[route.template] ?? ""}`,
      body: route.method === "GET" || route.method === "DELETE" ? undefined : (BODY_SAMPLES[route.template] ?? {}),
      capability: meta?.requires?.capability ?? meta?.metered?.capability ?? null,
      metered: Boolean(meta?.metered),
      keyOptional: meta?.openapi?.protect === false,
      webhooks: Boolean(meta?.requires?.webhooks),
      errors: errorCodesOf(meta ?? {}),
    };
  });
}
