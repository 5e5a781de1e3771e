// Settings of the features: webhooks, bulk jobs, assessment, rules, weights, links, reports, captcha, keys, scans.
import { flag, group, list, number, secret, text, url } from "./kinds";

export const webhooksAndBulkJobs = group("Webhooks and bulk jobs", {
  SERVICE_WEBHOOK_LIMIT: number({
    default: 20,
    min: 1,
    max: 1000,
    meaning: "Webhooks one workspace may register; one more is refused with 409 `CONFLICT`.",
  }),
  SERVICE_WEBHOOK_TIMEOUT_MS: number({
    default: 5000,
    min: 200,
    max: 60_000,
    meaning: "Time a receiver has to answer one delivery attempt (200..60000).",
  }),
  SERVICE_WEBHOOK_POLL_MS: number({
    default: 1000,
    min: 50,
    max: 60_000,
    meaning:
      "How often the worker looks for due deliveries (50..60000). A full batch is followed immediately by the next.",
  }),
  SERVICE_WEBHOOK_BATCH: number({
    default: 20,
    min: 1,
    max: 500,
    meaning: "Deliveries claimed and sent concurrently per pass (1..500).",
  }),
  SERVICE_WEBHOOK_WORKER: flag({
    default: true,
    meaning: "`0` keeps this instance from sending deliveries (another instance does it).",
  }),
  SERVICE_BULK_CONCURRENCY: number({
    default: 8,
    min: 1,
    max: 100,
    meaning: "Bulk job items one instance runs at once, across all jobs (1..100).",
  }),
  SERVICE_BULK_PER_JOB: number({
    default: 4,
    min: 1,
    max: 100,
    meaning: "Items of one job running at once across all instances, so one job never starves another (1..100).",
  }),
  SERVICE_BULK_LEASE_MS: number({
    default: 120_000,
    min: 200,
    max: 3_600_000,
    meaning:
      "How long a worker's claim on an item holds; an item whose instance died runs again after it (200..3600000).",
  }),
  SERVICE_BULK_POLL_MS: number({
    default: 500,
    min: 20,
    max: 60_000,
    meaning:
      "How often an idle bulk worker looks for items (20..60000); a job created in the instance wakes it at once.",
  }),
  SERVICE_BULK_WORKER: flag({
    default: true,
    meaning: "`0` keeps this instance from running bulk job items (another instance does it).",
  }),
});

export const assessmentRulesAndWeights = group("Assessment, rules and weights", {
  SERVICE_ASSESS_MX_TIMEOUT_MS: number({
    default: 300,
    min: 0,
    integer: false,
    meaning:
      "Budget in ms for the email domain's MX lookup (only for domains not on the free or disposable lists; answers are cached 10 minutes). `0` turns the lookup off. An unanswered lookup never fails or scores the request.",
  }),
  SERVICE_ASSESS_HIGH_AMOUNT: number({
    default: 1000,
    min: 1,
    integer: false,
    meaning:
      "Checkout amount (major units, any currency) at or above which `amount_high` (+10) applies; five times it gives `amount_very_high` (+25).",
  }),
  SERVICE_ASSESS_SMALL_AMOUNT_MINOR: number({
    default: 200,
    min: 1,
    meaning:
      "A `payment.amount` (minor units, any currency) below this is `payment.small_amount` for rules: card testers probe stolen cards with small charges (200 is 2.00 of a two-decimal currency).",
  }),
  SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES: number({
    default: 60,
    min: 1,
    integer: false,
    meaning:
      "How far back earlier assessments of the same IP, email or device in the workspace count towards velocity.",
  }),
  SERVICE_RULES_MAX: number({
    default: 100,
    min: 1,
    meaning: "Maximum number of rules per workspace; creating one more is 409 `CONFLICT`.",
  }),
  SERVICE_RULES_EVAL_BUDGET_MS: number({
    default: 50,
    min: 1,
    meaning: "Time all rules of one assessment may take; rules past it are listed in `rule_errors` as skipped.",
  }),
  SERVICE_RULES_BACKTEST_RATE_LIMIT: number({
    default: 10,
    min: 1,
    meaning: "Backtests per workspace per window (429 `RATE_LIMITED` with `Retry-After` beyond).",
  }),
  SERVICE_RULES_BACKTEST_RATE_WINDOW_SECONDS: number({ default: 60, min: 1, meaning: "Length of that window." }),
  SERVICE_RULES_BACKTEST_MAX_ASSESSMENTS: number({
    default: 200_000,
    min: 1,
    meaning: "Most recent stored assessments one backtest evaluates (`truncated: true` beyond).",
  }),
  SERVICE_LEARNED_WEIGHTS_MIN_LABELS: number({
    default: 50,
    min: 2,
    meaning: "Labelled assessments (fraud and legitimate among them) needed before learned weights are fitted",
  }),
  SERVICE_LEARNED_WEIGHTS_MAX_LABELS: number({
    default: 100_000,
    min: 100,
    meaning: "The newest labels one fit of the learned weights reads",
  }),
  SERVICE_WEIGHTS_CACHE_SECONDS: number({
    default: 30,
    min: 0,
    meaning: "How long a workspace's weights are reused from memory (`0`: off)",
  }),
});

export const linksToScans = group("Links, reports, captcha, keys and scans", {
  SERVICE_LINKS_ANON_RATE_LIMIT: number({
    default: 10,
    min: 1,
    max: 1_000_000,
    meaning: "Anonymous link creations per window and client address",
  }),
  SERVICE_LINKS_KEY_RATE_LIMIT: number({
    default: 120,
    min: 1,
    max: 1_000_000,
    meaning: "Keyed link creations per window and workspace",
  }),
  SERVICE_LINKS_RATE_WINDOW_SECONDS: number({
    default: 60,
    min: 1,
    max: 86_400,
    meaning: "Length of the creation rate-limit window (fixed window)",
  }),
  SERVICE_LINKS_RESOLVE_TIMEOUT_MS: number({
    default: 1500,
    min: 50,
    max: 30_000,
    meaning: "Bound on resolving the destination host for the SSRF guard; slower counts as unresolved",
  }),
  SERVICE_LINKS_SAFETY_TIMEOUT_MS: number({
    default: 1500,
    min: 50,
    max: 30_000,
    meaning: "Bound on each domain-blocklist query of the safety check; slower lists make it `incomplete`",
  }),
  SERVICE_LINKS_SAFETY_CHECK: flag({
    default: true,
    shown: "on",
    meaning: '`0`/`false`/`off` turns the blocklist check off (`safety.status: "skipped"`)',
  }),
  SERVICE_REPORTS_PURGE_AFTER_DAYS: number({
    default: 7,
    min: 0,
    meaning:
      "Days an expired (already hidden) report is kept before `deleteExpiredReports` deletes it. `0` deletes as soon as it expires.",
  }),
  "SERVICE_CAPTCHA_<PROVIDER>_VERIFY_URL": url({
    shown: "the provider's siteverify URL",
    meaning: "Verification endpoint for `turnstile`, `hcaptcha` or `recaptcha` used by `POST /captcha/test`",
  }),
  "SERVICE_CAPTCHA_<PROVIDER>_SECRET": secret({
    meaning: "Site secret used by `POST /captcha/test` when the request sends none",
  }),
  SERVICE_CAPTCHA_TIMEOUT_MS: number({
    default: 5000,
    min: 200,
    max: 30_000,
    meaning: "Timeout of one verification call",
  }),
  SERVICE_PUBLISHABLE_RATE_LIMIT: number({
    default: 30,
    min: 1,
    max: 100_000,
    meaning:
      "Device checks one publishable key accepts per client IP and window (over it: 429 with Retry-After, no unit)",
  }),
  SERVICE_PUBLISHABLE_RATE_WINDOW_SECONDS: number({
    default: 60,
    min: 1,
    max: 86_400,
    meaning: "Length of that window (fixed window)",
  }),
  SERVICE_KEY_CACHE_SECONDS: number({
    default: 60,
    min: 0,
    max: 3600,
    meaning:
      "How long a secret key's status and plans may serve metered lookups from memory (`0`: off). Never trusted alone: each reservation re-checks the key and plans in the same statement, so a revocation or plan change on any instance applies to the next request (`service_key_cache_total` on /metrics counts hits, misses and stale entries).",
  }),
  SERVICE_SCAN_WAIT_MS: number({
    default: 8000,
    min: 0,
    max: 60_000,
    meaning:
      "How long `POST /v1/scans` waits for the result; a longer scan answers 202 with its id and keeps running (`GET /v1/scans/{id}`).",
  }),
  SERVICE_SCAN_PART_TIMEOUT_MS: number({
    default: 10_000,
    min: 100,
    max: 60_000,
    meaning:
      "Longest time one part of a scan (HTTP, HTTPS, TLS, DNS and mail records) may take. Scoring: `docs/scans-scoring.md`.",
  }),
  SERVICE_SCAN_MAX_BODY_BYTES: number({
    default: 524_288,
    min: 1024,
    max: 10_485_760,
    meaning: "Most bytes of the first HTML page read for the Subresource Integrity test.",
  }),
});
