// What the benchmark measures. Add a scenario here: it runs once per store against the production server's /v1
// door with a fresh key of `plans`, or (target "reference") once against the bare reference server. A service
// scenario whose route is not registered yet (404 LOOKUP_NOT_FOUND) is reported as "not available" and skipped.
import { ipAt } from "./ips";

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
  /** Units one request costs, for the allowance check; default 1. */
  unitsPerRequest?: number;
  /** Status every response must have; default 200. */
  expectStatus?: number;
  /** Send no API key (to measure the rejection path). */
  anonymous?: boolean;
  /** The reference scenario this one's throughput is compared with. */
  reference?: string;
  /** Before any server starts (e.g. start a local DNS server); its env reaches every service process. */
  prepare?: () => Promise<Prepared>;
  /** After the server started and the workspace exists, once per store (e.g. create fixtures). */
  setup?: (ctx: SetupContext) => Promise<void>;
}

export const REFERENCE_GEO = "reference: lookupGeo over node:http";

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
    // Next.js, the REST door and the tRPC caller alone. The gap to the metered route is the database work.
    name: "GET /v1/ip/{ip}/geo without key (401 floor)",
    target: "service",
    method: "GET",
    path: (i) => `/ip/${ipAt(i)}/geo`,
    anonymous: true,
    expectStatus: 401,
    reference: REFERENCE_GEO,
  },
];

/** The request for the i-th call of a scenario: method, path below the API root, JSON body text. */
export function requestFor(s: Scenario, i: number): { method: HttpMethod; path: string; body: string | undefined } {
  const path = typeof s.path === "function" ? s.path(i) : s.path;
  const raw = typeof s.body === "function" ? (s.body as (i: number) => unknown)(i) : s.body;
  return { method: s.method, path, body: raw === undefined ? undefined : JSON.stringify(raw) };
}
