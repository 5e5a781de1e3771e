// `npm run probe-agent`: the online check's probe agent as its own small process (server/online-check/agent.ts).
//   PROBE_AGENT_PORT (3100), PROBE_AGENT_HOST (0.0.0.0), SERVICE_PROBE_TOKEN (required: the service sends it),
//   PROBE_AGENT_RATE_LIMIT (120) probes per PROBE_AGENT_RATE_WINDOW_SECONDS (60) per client address.
// Targets are vetted by the same SSRF guard and settings as the service (SERVICE_TARGET_*, SERVICE_DNS_SERVERS).
import { ConfigurationError, setting } from "../server/env";
import { createProbeAgent } from "../server/online-check/agent";
import { logger } from "../server/operate/log";

// Its settings as the registry reads them (server/env/operate.ts): an invalid value stops the agent naming the
// variable, as it stops the service; it used to fall back to the default (PROBE_AGENT_PORT=abc listened on 3100).
let settings: { port: number; host: string; rateLimit: number; windowSeconds: number; token: string | null };
try {
  settings = {
    port: setting("PROBE_AGENT_PORT"),
    host: setting("PROBE_AGENT_HOST"),
    rateLimit: setting("PROBE_AGENT_RATE_LIMIT"),
    windowSeconds: setting("PROBE_AGENT_RATE_WINDOW_SECONDS"),
    token: setting("SERVICE_PROBE_TOKEN"),
  };
} catch (err) {
  if (!(err instanceof ConfigurationError)) throw err;
  console.error(`probe agent: ${err.message}`);
  process.exit(1);
}
const { port, host, token } = settings;
if (!token) {
  console.error(
    "probe agent: set SERVICE_PROBE_TOKEN (the same value the service sends); an agent without one would probe for anyone.",
  );
  process.exit(1);
}
const log = logger().child({ component: "probe-agent" });
const server = createProbeAgent({
  token,
  rateLimit: settings.rateLimit,
  windowSeconds: settings.windowSeconds,
  onRequest: (line) => log.info(line, "request"),
});
server.once("error", (err: NodeJS.ErrnoException) => {
  console.error(
    `probe agent: cannot listen on ${host}:${port}: ${err.code === "EADDRINUSE" ? "the port is already in use" : err.message}`,
  );
  process.exit(1);
});
server.listen(port, host, () => {
  const address = server.address();
  log.info({ host, port: typeof address === "object" && address ? address.port : port }, "probe agent listening");
});
for (const sig of ["SIGTERM", "SIGINT"] as const) {
  process.on(sig, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
