// Settings of operation: scheduler, logs, metrics, tracing, shutdown, and those read only by scripts and tests.
import { choice, flag, group, number, optionalNumber, secret, text, url } from "./kinds";
import { SHUTDOWN_DEFAULTS, SHUTDOWN_MINIMUMS } from "./shutdown-timings.mjs";

export const operations = group("Operations", {
  SERVICE_SCHEDULER: flag({
    default: true,
    meaning:
      "`0` keeps this instance from running scheduled jobs (retention purge, feed refresh, daily sender check, end of grace); another instance runs them.",
  }),
  LOG_LEVEL: choice({
    values: ["trace", "debug", "info", "warn", "error", "fatal", "silent"],
    shown: "`info`",
    meaning: "`trace`, `debug`, `info`, `warn`, `error`, `fatal` or `silent`",
  }),
  LOG_FORMAT: choice({
    values: ["json", "pretty"],
    shown: "`json` (readable lines under `next dev`)",
    meaning: "`json` or `pretty` (short readable lines)",
  }),
  SERVICE_OUTPUT_VALIDATION: choice({
    values: ["off", "on", "strict"],
    default: "off",
    meaning:
      "Whether each answer passes through its procedure's output schema once more before it is sent: `off` (the procedures build their answers in the schema's shape; the test suite proves it), `on` (parse and send the parse), `strict` (parse, and answer 500 when the parse is another JSON value than the answer, field order aside: what the tests run with; it prints the difference to stderr, answer text included, so keep it out of production)",
  }),
  SERVICE_SHARED_ASYNC_STORAGE: flag({
    default: true,
    meaning:
      "`npm start`'s server gives every AsyncLocalStorage instance of Next, React and tracing one platform instance to share, so each promise carries one store instead of five (`scripts/shared-async-storage.mjs`; Node 20 only, later versions need none); `0` keeps Node's own class. Read from the process's environment before the server loads, so not from a `.env` file",
  }),
  SERVICE_METRICS_TOKEN: secret({
    meaning: "Bearer token that `/metrics` requires; unset keeps `/metrics` a 404 on the main port",
  }),
  SERVICE_METRICS_PORT: optionalNumber({
    unsetMeans: "no metrics listener",
    min: 0,
    max: 65_535,
    shown: "(unset)",
    meaning: "Serve `/metrics` (and `/healthz`, `/readyz`) on this port instead of the main one",
  }),
  SERVICE_METRICS_HOST: text({ default: "127.0.0.1", meaning: "Address of that metrics listener" }),
  SERVICE_READYZ_DB_TIMEOUT_MS: number({
    default: 1000,
    min: 50,
    max: 60_000,
    meaning: "How long `/readyz` waits for the database before it counts as down",
  }),
  SERVICE_SHUTDOWN_DELAY_MS: number({
    default: SHUTDOWN_DEFAULTS.SERVICE_SHUTDOWN_DELAY_MS,
    min: SHUTDOWN_MINIMUMS.SERVICE_SHUTDOWN_DELAY_MS,
    meaning: "After SIGTERM, how long new connections are still accepted (readiness already 503)",
  }),
  SERVICE_SHUTDOWN_GRACE_MS: number({
    default: SHUTDOWN_DEFAULTS.SERVICE_SHUTDOWN_GRACE_MS,
    min: SHUTDOWN_MINIMUMS.SERVICE_SHUTDOWN_GRACE_MS,
    meaning: "Longest shutdown, counted from the signal; past it the process exits 1",
  }),
  SERVICE_DB_OUTAGE_LOG_MS: number({
    default: 30_000,
    min: 1,
    meaning:
      'While the database cannot be reached, how often the log repeats "database unreachable" (with the count of failures since)',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: url({
    meaning: "OTLP/HTTP collector for traces (`/v1/traces` is appended); unset means no tracing",
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url({
    meaning:
      "OTLP/HTTP endpoint for traces only (used as given); either this or `OTEL_EXPORTER_OTLP_ENDPOINT` turns tracing on",
  }),
  OTEL_SERVICE_NAME: text({
    default: "security-fraud-intelligence-api",
    meaning: "`service.name` of the exported spans",
  }),
});

export const probeAgentAndTests = group("Probe agent and tests", {
  INIT_CWD: text({
    outside: true,
    shown: "(set by npm)",
    meaning:
      "The folder `npm run` was started from (npm sets it; the command itself runs in the project's root): `npm run admin` resolves a relative `--to` against it.",
  }),
  PROBE_AGENT_PORT: number({
    default: 3100,
    min: 0,
    max: 65_535,
    outside: true,
    meaning: "Port of `npm run probe-agent`",
  }),
  PROBE_AGENT_HOST: text({ default: "0.0.0.0", outside: true, meaning: "Address of the probe agent" }),
  PROBE_AGENT_RATE_LIMIT: number({
    default: 120,
    min: 1,
    outside: true,
    meaning: "Probes one client address may ask of an agent per window",
  }),
  PROBE_AGENT_RATE_WINDOW_SECONDS: number({ default: 60, min: 1, outside: true, meaning: "Length of that window" }),
  CHROMIUM_PATH: text({
    accepts: "a file path",
    outside: true,
    shown: "(found)",
    meaning:
      "Browser of the end-to-end tests; unset, `npm test` looks for Debian's or Google's Chromium, then Playwright's own",
  }),
  E2E_BROWSER_INSTALL: flag({
    default: true,
    outside: true,
    meaning: "`0`: the end-to-end step never installs a browser, it only says what to run",
  }),
});
