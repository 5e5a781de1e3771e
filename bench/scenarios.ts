// What the benchmark measures. Add a scenario here: it runs once per store against the production server's /v1
// API with a fresh key of `plans`, or (target "reference") once against the bare reference server. A service
// scenario whose route is not registered yet (404 LOOKUP_NOT_FOUND) is reported as "not available" and skipped.
import { checkoutAt, loginAt, PARTNER_LIST, PARTNER_RULE, partnerNetworks } from "./assess-fixtures";
import { BLOCKLIST_TARGETS, LISTED_TARGETS } from "./dnsbl-targets";
import { ipAt } from "./ips";
import { fakeDns, fakePackageSources } from "./upstreams";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface SetupContext {
  baseUrl: string;
  apiKey: string;
  workspaceId: string;
  /** `npm run admin -- <argv> --json` against the store the server uses. */
  admin(argv: string[]): Promise<Record<string, unknown>>;
}

export interface Prepared {
  /** Variables the service needs (e.g. a local DNS server's address); applied to every store's server. */
  env?: Record<string, string>;
  teardown?: () => Promise<void>;
  /** Running totals of upstream calls per source; read before and after a measurement for calls per request. */
  counters?: () => Promise<Record<string, number>>;
}

export interface Scenario {
  name: string;
  /** "service": the production server, /v1 prefix, with an API key; "reference": the bare node:http server. */
  target: "service" | "reference";
  method: HttpMethod;
  /** Path below the API root ("/ip/8.8.8.8/geo"), or a generator called with a rotating request counter. */
  path: string | ((i: number) => string);
  /** JSON body, or a generator like `path`. */
  body?: unknown | ((i: number) => unknown);
  /** Plans of the workspace whose key makes the requests (service scenarios); default lookups_growth. */
  plans?: string[];
  /**
   * A workspace of its own, by this name, for a scenario whose setup changes what others would measure (rules,
   * lists); by default scenarios of the same plans share one.
   */
  workspace?: string;
  /** Units one request costs, for the allowance check; default 1. */
  unitsPerRequest?: number;
  /** Status every response must have; default 200. */
  expectStatus?: number;
  /** Send no API key (to measure the rejection path). */
  anonymous?: boolean;
  /**
   * At most this many connections (BENCH_CONNECTIONS still caps it): for requests that fan out into many upstream
   * calls, so the local fake upstream is not what saturates. Applies to the reference alike.
   */
  maxConnections?: number;
  /** Checks the probe's JSON body (null when it is right, else what is wrong), e.g. that the fake upstream answered. */
  checkProbe?: (body: unknown) => string | null;
  /** The reference scenario this one's throughput is compared with. */
  reference?: string;
  /** Before any server starts (e.g. start a local DNS server); its env reaches every service process. */
  prepare?: () => Promise<Prepared>;
  /** After the server started and the workspace exists, once per store (e.g. create fixtures). */
  setup?: (ctx: SetupContext) => Promise<void>;
}

export const REFERENCE_GEO = "reference: lookupGeo over node:http";
export const REFERENCE_IP = "reference: getIpReputation over node:http";
export const REFERENCE_BLOCKLISTS = "reference: checkBlocklists (20 targets) over node:http";
export const REFERENCE_NPM = "reference: getNpmReportOrThrow (50 advisories) over node:http";
export const REFERENCE_ASSESS = "reference: the assessment's gathering and decide() over node:http (events in memory)";
export const REFERENCE_LOGIN =
  "reference: a login's gathering and decide() with account history and a list rule over node:http (events in memory)";

/**
 * One blocklist request makes about 70 DNS queries at once; at 48 connections that is over 3,000 queries in flight,
 * and the single-process fake DNS server (and the UDP buffers) start dropping some, so requests wait for the
 * 2 s timeout. 8 connections keep the fake out of the way and still saturate the server under test.
 */
const BLOCKLIST_CONNECTIONS = 8;

/** The package with 50 OSV advisories in test/fakes/packages (60 versions, each advisory fixed one minor later). */
export const MANY_ADVISORIES_PACKAGE = "many-vulns";

/** Every target answered by every list, and exactly the zone data's listed targets listed. */
function blocklistProbe(body: unknown): string | null {
  const summary = (body as { summary?: { targets?: number; listed?: number; incomplete?: number } } | null)?.summary;
  if (summary?.targets !== BLOCKLIST_TARGETS.length || summary.listed !== LISTED_TARGETS || summary.incomplete !== 0) {
    return `expected ${BLOCKLIST_TARGETS.length} targets, ${LISTED_TARGETS} listed, 0 incomplete; got ${JSON.stringify(summary)}`;
  }
  return null;
}

/** The report of the 50-advisory package is complete. */
function npmProbe(body: unknown): string | null {
  const total = (body as { summary?: { total?: number } } | null)?.summary?.total;
  return total === 50 ? null : `expected 50 advisories, got ${total}`;
}

/** The assessment answered with a score and a decision. */
function assessProbe(body: unknown): string | null {
  const b = body as { score?: unknown; decision?: unknown } | null;
  return typeof b?.score === "number" && typeof b.decision === "string"
    ? null
    : `expected a scored assessment, got ${JSON.stringify(body).slice(0, 200)}`;
}

export const SCENARIOS: Scenario[] = [
  {
    name: REFERENCE_GEO,
    target: "reference",
    method: "GET",
    path: (i) => `/ip/${ipAt(i)}/geo`,
  },
  {
    name: "GET /v1/ip/{ip}/geo",
    target: "service",
    method: "GET",
    path: (i) => `/ip/${ipAt(i)}/geo`,
    plans: ["lookups_growth"],
    reference: REFERENCE_GEO,
  },
  {
    // The framework floor: the same route without a key is refused (401) before any database work, so this measures
    // Next.js, the REST API and the tRPC caller alone. The gap to the metered route is the database work.
    name: "GET /v1/ip/{ip}/geo without key (401 floor)",
    target: "service",
    method: "GET",
    path: (i) => `/ip/${ipAt(i)}/geo`,
    anonymous: true,
    expectStatus: 401,
    reference: REFERENCE_GEO,
  },
  {
    name: REFERENCE_IP,
    target: "reference",
    method: "GET",
    path: (i) => `/ip/${ipAt(i)}`,
  },
  {
    // The reputation object from shipped feeds held in memory (ASN tables, cloud ranges, DROP, Tor exits).
    name: "GET /v1/ip/{ip}",
    target: "service",
    method: "GET",
    path: (i) => `/ip/${ipAt(i)}`,
    reference: REFERENCE_IP,
  },
  {
    name: REFERENCE_BLOCKLISTS,
    target: "reference",
    method: "POST",
    path: "/blocklists/check",
    body: { targets: BLOCKLIST_TARGETS },
    prepare: fakeDns,
    maxConnections: BLOCKLIST_CONNECTIONS,
    checkProbe: blocklistProbe,
  },
  {
    // 20 targets (IPv4, IPv6, domains; 7 listed) against 5 DNSBL zones on a local DNS server in its own process:
    // about 50 DNS queries per request, all in parallel. 20 units per request, bulk entitlement required.
    name: "POST /v1/blocklists/check (20 targets)",
    target: "service",
    method: "POST",
    path: "/blocklists/check",
    body: { targets: BLOCKLIST_TARGETS },
    unitsPerRequest: BLOCKLIST_TARGETS.length,
    prepare: fakeDns,
    maxConnections: BLOCKLIST_CONNECTIONS,
    checkProbe: blocklistProbe,
    reference: REFERENCE_BLOCKLISTS,
  },
  {
    name: REFERENCE_NPM,
    target: "reference",
    method: "GET",
    path: `/vulnerabilities/npm/${MANY_ADVISORIES_PACKAGE}/`,
    prepare: fakePackageSources,
    checkProbe: npmProbe,
  },
  {
    // Warm: the probe and the warm-up fill the upstream cache (SERVICE_PACKAGE_CACHE_TTL_SECONDS, 300 s), so the
    // measured run shows the report's own cost. The cold cost is measured in-process (bench/npm-report-runner.ts).
    name: "GET /v1/vulnerabilities/npm/{package}/ (50 advisories) warm",
    target: "service",
    method: "GET",
    path: `/vulnerabilities/npm/${MANY_ADVISORIES_PACKAGE}/`,
    prepare: fakePackageSources,
    checkProbe: npmProbe,
    reference: REFERENCE_NPM,
  },
  // The assessment on local signals only (shipped feeds, no email, so no DNS): a checkout from a rotating address.
  // Issue 24's targets at 8 connections: at most 1.0 ms of server CPU per assessment, p99 under 25 ms, at least
  // 600/s on PostgreSQL and 250/s on PGlite. Each request writes its event, history and ledger rows.
  {
    name: REFERENCE_ASSESS,
    target: "reference",
    method: "POST",
    path: "/assess",
    body: checkoutAt,
    maxConnections: 8,
    checkProbe: assessProbe,
  },
  ...[1, 8].map((connections): Scenario => ({
    name: `POST /v1/assess (local signals) at ${connections} connection${connections === 1 ? "" : "s"}`,
    target: "service",
    method: "POST",
    path: "/assess",
    body: checkoutAt,
    plans: ["suite_agency"],
    maxConnections: connections,
    checkProbe: assessProbe,
    ...(connections === 8 ? { reference: REFERENCE_ASSESS } : {}),
  })),
  // A login flow: 500 accounts with their baseline (countries, networks, devices, travel), one attempt in seven
  // failed (failure and credential-stuffing counters), and a rule testing a 1,000-network list on every login.
  {
    name: REFERENCE_LOGIN,
    target: "reference",
    method: "POST",
    path: "/assess/login",
    body: loginAt,
    maxConnections: 8,
    checkProbe: assessProbe,
  },
  {
    name: "POST /v1/assess (login with account history and a list rule) at 8 connections",
    target: "service",
    method: "POST",
    path: "/assess",
    body: loginAt,
    plans: ["suite_agency"],
    workspace: "login",
    maxConnections: 8,
    checkProbe: assessProbe,
    reference: REFERENCE_LOGIN,
    setup: async ({ baseUrl, apiKey }) => {
      const call = async (path: string, body: unknown) => {
        const res = await fetch(`${baseUrl}/v1${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as Record<string, unknown>;
        if (!res.ok) throw new Error(`setup: POST ${path} answered ${res.status}: ${JSON.stringify(json)}`);
        return json;
      };
      const list = await call("/lists", { name: PARTNER_LIST, kind: "ip", description: "Partner networks" });
      await call(`/lists/${String(list.id)}/items`, { items: partnerNetworks().map((value) => ({ value })) });
      await call("/rules", { priority: 0, ...PARTNER_RULE });
    },
  },
];

/** The request for the i-th call of a scenario: method, path below the API root, JSON body text. */
export function requestFor(s: Scenario, i: number): { method: HttpMethod; path: string; body: string | undefined } {
  const path = typeof s.path === "function" ? s.path(i) : s.path;
  const raw = typeof s.body === "function" ? (s.body as (i: number) => unknown)(i) : s.body;
  return { method: s.method, path, body: raw === undefined ? undefined : JSON.stringify(raw) };
}
