// Prometheus scrape on the main port: 404 unless SERVICE_METRICS_TOKEN is set and presented as a bearer token,
// and 404 when SERVICE_METRICS_PORT serves the metrics on their own listener instead.
import { metricsResponse } from "../../server/operate/probes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = (req: Request) => metricsResponse(req, "main");
