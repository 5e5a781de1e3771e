// `npm run probe-agent`: the online check's probe agent as its own small process (server/online-check/agent.ts).
//   PROBE_AGENT_PORT (3100), PROBE_AGENT_HOST (0.0.0.0), SERVICE_PROBE_TOKEN (required: the service sends it),
//   PROBE_AGENT_RATE_LIMIT (120) probes per PROBE_AGENT_RATE_WINDOW_SECONDS (60) per client address.
// Targets are vetted by the same SSRF guard and settings as the service (SERVICE_TARGET_*, SERVICE_DNS_SERVERS).
import { createProbeAgent } from "../server/online-check/agent";
import { logger } from "../server/operate/log";

const int = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const token = process.env.SERVICE_PROBE_TOKEN?.trim();
if (!token) {
  console.error(
    "probe agent: set SERVICE_PROBE_TOKEN (the same value the service sends); an agent without one would probe for anyone.",
  );
  process.exit(1);
}
const port = int("PROBE_AGENT_PORT", 3100);
const host = process.env.PROBE_AGENT_HOST || "0.0.0.0";
const log = logger().child({ component: "probe-agent" });
const server = createProbeAgent({
  token,
  rateLimit: int("PROBE_AGENT_RATE_LIMIT", 120),
  windowSeconds: int("PROBE_AGENT_RATE_WINDOW_SECONDS", 60),
  onRequest: (line) => log.info(line, "request"),
});
server.listen(port, host, () => log.info({ host, port }, "probe agent listening"));
for (const sig of ["SIGTERM", "SIGINT"] as const) {
  process.on(sig, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
