// Settings of the lookups: feeds, upstream sources (RDAP, DNS, blocklists, CT, package registries) and targets.
import { isFeedSource, isPemCertificateFile, parseDnsServer, parseProbeLocation, parseRdapServer } from "./addresses";
import { choice, flag, group, list, number, secret, text, url } from "./kinds";
import { rawValue } from "./source";

/**
 * A DNS name as a list item (a blocklist zone, a special-use suffix): dot-separated labels of letters, digits, `-`
 * and `_`, an optional final dot. A space-separated list read as one item, or a URL, used to start and never match.
 */
const DNS_NAME: { test: (v: string) => boolean; says: string } = {
  test: (v) =>
    v.length <= 254 &&
    /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.?$/i.test(v),
  says: "a DNS name",
};

/** A special-use suffix: a DNS name, which may also be written with its leading dot (`.test`, as server/net/special-use.ts reads it). */
const DNS_SUFFIX: { test: (v: string) => boolean; says: string } = {
  test: (v) => DNS_NAME.test(v.startsWith(".") ? v.slice(1) : v),
  says: "a DNS name",
};

const RESOLVER = {
  accepts: "comma-separated resolver addresses",
  item: {
    test: (v: string) => parseDnsServer(v) !== null,
    says: "a resolver address (an IP address, IP:port or [IPv6]:port)",
  },
};

/** A feed's live source: one or more space-separated http(s) URLs, or `off` (any case, read as `off`). */
function feedSource(o: { shown: string; meaning: string }) {
  const plain = text({
    ...o,
    accepts: "a URL or `off`",
    shape: { test: isFeedSource, says: "an http(s) URL (several separated by spaces) or off" },
  });
  return {
    ...plain,
    read: (name: string, raw: string | undefined) => {
      const v = plain.read(name, raw);
      return v?.toLowerCase() === "off" ? "off" : v;
    },
  };
}

const UPSTREAM = "SERVICE_UPSTREAM_TIMEOUT_MS";
const upstreamTimeout = number({
  default: 5000,
  min: 1,
  max: 120_000,
  meaning:
    "The longest a lookup waits for any one upstream (a resolver over all its servers, RDAP, a package registry, a target host, certificate transparency) before it answers without it or 503 `UPSTREAM_UNAVAILABLE` with `Retry-After`. The per-upstream settings below override it for their upstream.",
});
/** SERVICE_UPSTREAM_TIMEOUT_MS, the default of every upstream's own timeout. */
const upstreamTimeoutMs = () => upstreamTimeout.read(UPSTREAM, rawValue(UPSTREAM));

export const feeds = group("Feeds", {
  "SERVICE_FEED_<NAME>_URL": feedSource({
    shown: "the feed's live source (see `docs/config/feeds-ip.md`)",
    meaning:
      "Source of one feed for `feeds refresh`; NAME is the feed name upper-cased with `-` as `_` (e.g. `SERVICE_FEED_TOR_EXITS_URL`). `off` disables refreshing that feed.",
  }),
  SERVICE_FEED_TIMEOUT_MS: number({ default: 60_000, min: 1, meaning: "Download timeout of one feed refresh." }),
  SERVICE_FEED_MAX_BYTES: number({ default: 209_715_200, min: 1, meaning: "Largest payload a refresh accepts." }),
  SERVICE_FEED_REFRESH: flag({
    default: true,
    shown: "on",
    meaning: "`off` stops the scheduled refresh of every feed (on every instance); `feeds refresh` still works.",
  }),
  "SERVICE_FEED_<NAME>_REFRESH_SECONDS": number({
    default: null,
    min: 60,
    shown: "the feed's cadence (Tor 3600; Spamhaus, cloud, VPN, relay, KEV 86400; others 604800)",
    meaning: "How often one feed refreshes itself; at least 60.",
  }),
  SERVICE_FEED_RECHECK_SECONDS: number({
    default: 300,
    min: 1,
    meaning:
      "How often a running process looks in the database for a snapshot refreshed elsewhere (checked in the background, never on a request's path).",
  }),
  SERVICE_FEED_DISPOSABLE_DOMAINS_URL: feedSource({
    shown: "the disposable-email-domains blocklist on GitHub",
    meaning: "Live source of the `disposable-domains` feed for `feeds refresh`; `off` disables refresh.",
  }),
  SERVICE_FEED_FREE_EMAIL_DOMAINS_URL: feedSource({
    shown: "Kikobeats/free-email-domains `domains.json` on GitHub",
    meaning: "Live source of the `free-email-domains` feed; `off` disables refresh.",
  }),
  SERVICE_FEED_KEV_URL: feedSource({
    shown: "`https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json`",
    meaning:
      "Live source of the CISA KEV catalog for `npm run admin -- feeds refresh --feed kev` (JSON feed or the CSV file); `off` disables refresh.",
  }),
});

export const upstreams = group("Upstreams: RDAP, DNS and blocklists", {
  SERVICE_UPSTREAM_TIMEOUT_MS: upstreamTimeout,
  SERVICE_RDAP_BOOTSTRAP_URL: url({
    default: "https://data.iana.org/rdap/",
    meaning:
      "Base of the IANA RDAP bootstrap files (`dns.json`, `ipv4.json`, `ipv6.json`, `asn.json`) used when refreshing the `rdap-bootstrap-*` feeds.",
  }),
  SERVICE_RDAP_BASE_URL: url({
    meaning:
      "Sends every RDAP query to this server instead of the one the bootstrap names (a mirror, or a local server in tests). The registry reported is still the bootstrap's.",
  }),
  SERVICE_RDAP_SERVERS: list({
    accepts: "comma-separated `key=URL`",
    item: {
      test: (v) => parseRdapServer(v) !== null,
      says: "an RDAP server (key=http(s) URL, key a registry or a TLD)",
    },
    meaning:
      "Per-registry or per-TLD RDAP servers, comma-separated `key=url`; keys `arin`, `ripe`, `apnic`, `lacnic`, `afrinic` or a TLD such as `com`.",
  }),
  SERVICE_RDAP_TIMEOUT_MS: number({
    default: () => upstreamTimeoutMs(),
    min: 1,
    shown: "SERVICE_UPSTREAM_TIMEOUT_MS (5000)",
    meaning:
      "Timeout of one RDAP query; past it the route answers 503 UPSTREAM_UNAVAILABLE (or a null field with a reason where the answer can stand without RDAP).",
  }),
  SERVICE_DNS_SERVERS: list({
    ...RESOLVER,
    shown: "the system resolvers (`/etc/resolv.conf`, as Node reads it)",
    meaning:
      "Comma-separated recursive resolvers used for every DNS query: `192.0.2.53`, `127.0.0.1:5353`, `[2001:db8::53]:53`. Tried in order; a resolver that times out, fails (SERVFAIL) or refuses is followed by the next.",
  }),
  SERVICE_DNS_TIMEOUT_MS: number({
    default: 2000,
    min: 1,
    meaning:
      "How long one query waits for one resolver (UDP, and again for the TCP retry of a truncated answer); the next resolver is asked only with what is left of `SERVICE_UPSTREAM_TIMEOUT_MS`.",
  }),
  SERVICE_DNSBL_IP_ZONES: list({
    accepts: "comma-separated DNS names",
    item: DNS_NAME,
    default: ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org"],
    meaning: "Comma-separated DNS blocklist zones queried for IPv4 and IPv6 targets.",
  }),
  SERVICE_DNSBL_DOMAIN_ZONES: list({
    accepts: "comma-separated DNS names",
    item: DNS_NAME,
    default: ["dbl.spamhaus.org", "multi.surbl.org"],
    meaning: "Comma-separated DNS blocklist zones queried for domain targets.",
  }),
  SERVICE_DNSBL_DNS_SERVERS: list({
    ...RESOLVER,
    shown: "SERVICE_DNS_SERVERS",
    meaning:
      "Resolvers for blocklist queries only. Spamhaus, SURBL and URIBL refuse queries that arrive through large public resolvers (answering 127.255.255.254 or 127.0.0.1, reported as `refused`); point this at your own recursive resolver.",
  }),
  SERVICE_DNSBL_TIMEOUT_MS: number({
    default: 2000,
    min: 1,
    meaning:
      "Per blocklist query and resolver. All lists and targets are queried in parallel, so a 20-target check is bounded by about this time per configured resolver.",
  }),
});

export const targetsAndOnlineCheck = group("Targets and online check", {
  SERVICE_ALLOW_PRIVATE_TARGETS: flag({
    default: false,
    meaning:
      "`1` lets user-supplied targets reach loopback, RFC 1918 private, unique-local and carrier-grade NAT addresses. For tests and local development only. Link-local, multicast, reserved and cloud-metadata addresses stay refused. Ignored in a declared production deployment (`SERVICE_ENV=production`) unless the next setting is also `1`. Upstream URLs the operator configures (every `SERVICE_*_URL`, such as an internal OSV or registry mirror on a private address) are trusted and never need it: the guard is for targets users send.",
  }),
  SERVICE_ALLOW_PRIVATE_TARGETS_IN_PRODUCTION: flag({
    default: false,
    meaning:
      "`1` confirms that SERVICE_ALLOW_PRIVATE_TARGETS is meant in production. Without it, one development variable copied into a production environment cannot open the internal network.",
  }),
  SERVICE_TARGET_RESOLVER: choice({
    values: ["system", "configured"],
    default: "system",
    meaning:
      "How target host names are resolved before they are vetted: `system` (node:dns `lookup`, as the host resolves) or `configured` (the service's DNS client and SERVICE_DNS_SERVERS).",
  }),
  SERVICE_SPECIAL_USE_NAMES: list({
    accepts: "comma-separated DNS names",
    item: DNS_SUFFIX,
    default: ["invalid", "test", "example", "localhost", "local", "onion", "alt", "internal", "home.arpa"],
    meaning:
      "Special-use name suffixes (RFC 6761 and later) that every route taking a host name (DNS lookup, mail posture, the domain routes, hosts, scans, online check) answers 404 `DOMAIN_NOT_FOUND` before admission and before asking any resolver, free; `/blocklists/check` (a unit per submitted target, as for any target) and a go link's safety check send such a name to no list. Narrow it (e.g. `invalid,localhost`) when your resolver serves a private `.test` zone.",
  }),
  SERVICE_TARGET_RESOLVE_TIMEOUT_MS: number({
    default: 3000,
    min: 100,
    max: 60_000,
    meaning: "Longest wait for resolving one target host name.",
  }),
  SERVICE_TARGET_CONNECT_TIMEOUT_MS: number({
    default: 5000,
    min: 100,
    max: 60_000,
    meaning: "Longest wait for a TCP connection to a target.",
  }),
  SERVICE_TARGET_TIMEOUT_MS: number({
    default: () => upstreamTimeoutMs(),
    min: 200,
    max: 120_000,
    shown: "SERVICE_UPSTREAM_TIMEOUT_MS (5000)",
    meaning: "Longest whole request to a target, redirects included. A TLS inspection is bounded by the same value.",
  }),
  SERVICE_TARGET_MAX_REDIRECTS: number({
    default: 5,
    min: 0,
    max: 20,
    meaning: "Redirects followed before the answer says `too_many`. Each hop is vetted again.",
  }),
  SERVICE_TARGET_MAX_RESPONSE_BYTES: number({
    default: 1_048_576,
    min: 1024,
    max: 52_428_800,
    meaning:
      "Most bytes of a response body read from a target. The host routes read at most 64 KiB and the online check 16 KiB.",
  }),
  SERVICE_EXTRA_CA_FILE: text({
    accepts: "the path of a readable file of PEM certificates",
    shape: { test: isPemCertificateFile, says: "the path of a readable file of PEM certificates" },
    meaning:
      "PEM file of extra trusted CA certificates, added to the system roots when chains are verified. Tests use it for the CA they generate.",
  }),
  SERVICE_MTA_STS_PORT: number({
    default: 443,
    min: 1,
    max: 65_535,
    meaning:
      "Port of the MTA-STS policy fetch (`https://mta-sts.<domain>/.well-known/mta-sts.txt`, RFC 8461 fixes 443). For tests only, which serve the policy from a port on 127.0.0.1; leave it unset in a deployment.",
  }),
  SERVICE_PROBE_LOCATIONS: list({
    default: ["local"],
    accepts:
      "comma-separated `local`, `local=NAME`, `NAME` (or `NAME=`, `NAME=local`: this server labelled NAME) or `NAME=URL` (an http(s) URL); a NAME is any text that is not empty and not a URL",
    item: {
      test: (v) => parseProbeLocation(v) !== null,
      says: "a probe location (local, local=NAME, NAME or NAME=http(s) URL; a NAME is not empty and not a URL)",
    },
    meaning:
      "Comma-separated probe locations for the online check. `local` (optionally `local=NAME`) probes from this server. `NAME=https://probe.example/probe` asks a remote probe agent.",
  }),
  SERVICE_PROBE_TOKEN: secret({
    meaning: "Bearer token sent to remote probe agents (and required by `npm run probe-agent`).",
  }),
  SERVICE_ONLINE_CHECK_TIMEOUT_MS: number({
    default: () => upstreamTimeoutMs(),
    min: 1,
    shown: "SERVICE_UPSTREAM_TIMEOUT_MS (5000)",
    meaning: "Longest time one probe may take. Remote agents get 2 s more for the round trip.",
  }),
  SERVICE_ONLINE_CHECK_RATE_LIMIT: number({
    default: 10,
    min: 1,
    meaning:
      "Online checks allowed per workspace per window. Past it, the answer is 429 RATE_LIMITED with Retry-After and no unit is consumed.",
  }),
  SERVICE_ONLINE_CHECK_RATE_WINDOW_SECONDS: number({ default: 60, min: 1, meaning: "Length of that window." }),
  SERVICE_PASSWORDS_RANGE_RATE_LIMIT: number({
    default: 1200,
    min: 1,
    meaning:
      "Requests to `GET /v1/passwords/range/{prefix}` (unmetered) allowed per workspace per minute. Past it, the answer is 429 RATE_LIMITED with Retry-After.",
  }),
  SERVICE_CT_URL: url({
    default: "https://crt.sh",
    meaning:
      "Base URL of a crt.sh-compatible certificate-transparency search (`{base}/?q=%25.example.com&output=json`).",
  }),
  SERVICE_CT_TIMEOUT_MS: number({
    default: () => upstreamTimeoutMs(),
    min: 1,
    shown: "SERVICE_UPSTREAM_TIMEOUT_MS (5000)",
    meaning:
      "Longest wait for the CT source, name resolution included. After that the retained answer is served, or 503 with Retry-After when there is none.",
  }),
  SERVICE_CT_MAX_BYTES: number({
    default: 67_108_864,
    min: 1,
    meaning: "Largest CT answer accepted. A larger one counts as unavailable.",
  }),
  SERVICE_DOMAIN_PART_TIMEOUT_MS: number({
    default: () => upstreamTimeoutMs(),
    min: 1,
    shown: "SERVICE_UPSTREAM_TIMEOUT_MS (5000)",
    meaning:
      "Longest wait of `GET /domain/{domain}` for any one part (RDAP, DNS, email authentication, blocklists) before it answers without that part (null with a reason).",
  }),
});

export const packageVulnerabilities = group("Package vulnerabilities", {
  SERVICE_NPM_REGISTRY_URL: url({
    shown: "npm's own setting: `npm_config_registry`, else `registry=` in `./.npmrc` or `~/.npmrc`",
    meaning:
      "Base URL of the npm registry (package documents). Never written in code; without any setting, npm lookups answer 503.",
  }),
  SERVICE_NPM_ADVISORY_URL: url({
    shown: "the npm registry URL",
    meaning:
      "Base of the bulk advisory endpoint `POST /-/npm/v1/security/advisories/bulk` (the source of `npm audit`), the second advisory source for npm, merged with OSV by GHSA id/alias. Its failure alone does not fail a report.",
  }),
  SERVICE_NPM_DOWNLOADS_URL: url({
    default: "https://api.npmjs.org",
    meaning: "npm's download-count service (`/downloads/point/last-week/{name}`).",
  }),
  SERVICE_OSV_API_URL: url({
    default: "https://api.osv.dev",
    meaning: "OSV API: `/v1/querybatch` (ids), `/v1/vulns/{id}` (records, fetched in parallel), `/v1/query`.",
  }),
  SERVICE_PYPI_URL: url({ default: "https://pypi.org", meaning: "PyPI JSON API (`/pypi/{name}/json`)." }),
  SERVICE_PYPI_POPULAR_URL: url({
    meaning:
      'Source of the popular PyPI projects the typosquat check compares names against: a JSON document shaped like Hugo van Kemenade\'s top-pypi-packages (`{ "last_update": "2026-04-01 06:34:06", "rows": [{ "project", "download_count" }] }`, 30-day counts, most downloaded first; e.g. `https://hugovk.dev/top-pypi-packages/top-pypi-packages.min.json`). The 15,000 most downloaded are kept with their counts, stored in the database and dated by `last_update`; refreshed daily (like the feeds, off with SERVICE_FEED_REFRESH=off) and by `npm run admin -- popular-names refresh`. A failed refresh keeps the list in use. Unset: no PyPI list, so PyPI typosquat checks find nothing and the scan\'s `popularNames:pypi` source says why.',
  }),
  SERVICE_MAVEN_REPOSITORY_URL: url({
    default: "https://repo1.maven.org/maven2",
    meaning: "Maven 2 layout repository: `maven-metadata.xml` and the latest release's POM.",
  }),
  SERVICE_GO_PROXY_URL: url({
    default: "https://proxy.golang.org",
    meaning: "Go module proxy (`/@v/list`, `/@latest`, `/@v/{v}.info`).",
  }),
  SERVICE_PACKAGIST_URL: url({
    default: "https://repo.packagist.org",
    meaning: "Composer v2 metadata (`/p2/{vendor}/{package}.json`).",
  }),
  SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS: number({
    default: () => upstreamTimeoutMs(),
    min: 1,
    shown: "SERVICE_UPSTREAM_TIMEOUT_MS (5000)",
    meaning:
      "Timeout of one upstream request; a timeout makes the source unavailable (503, or a null field with a reason where the source is optional).",
  }),
  SERVICE_PACKAGE_CACHE_TTL_SECONDS: number({
    default: 300,
    min: 1,
    meaning:
      "How long an upstream answer is reused in-process. Failures are never cached. A repeated lookup still costs its unit. After that, an answer the source gave with an ETag or Last-Modified is asked for again conditionally, and a 304 renews it without a new download or parse.",
  }),
  SERVICE_OSV_FETCH_CONCURRENCY: number({
    default: 16,
    min: 1,
    meaning:
      "OSV records fetched in parallel for one report. OSV records are also kept by id and `modified` time, so an unchanged advisory is not fetched again.",
  }),
  SERVICE_EPSS_URL: url({
    meaning:
      "EPSS source (FIRST's API shape: `GET /data/v1/epss?cve=CVE-1,CVE-2`, e.g. `https://api.first.org`) for the exploit likelihood beside each CVE in `POST /v1/vulnerabilities/scan`. Unset: scores are null with the reason.",
  }),
  SERVICE_SCAN_REGISTRY_CONCURRENCY: number({
    default: 16,
    min: 1,
    max: 256,
    meaning:
      "Registry documents fetched in parallel by one `POST /v1/vulnerabilities/scan` (one per distinct package, cached like every package lookup), each on a connection of its own: about as many as npm's own client opens (15 sockets). Through a network that throttles a burst of new connections, more in flight make some stall until the timeout (a package that did is asked once more after the others, for at most one more timeout, when its registry answered others). Once this many requests to one registry have timed out in a row, its other packages are not asked: a registry that is down costs a scan about two timeouts.",
  }),
});
