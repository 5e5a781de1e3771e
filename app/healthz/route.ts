// Liveness probe: outside /v1, unauthenticated, unmetered, no database call.
import { healthzResponse } from "../../server/operate/probes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = () => healthzResponse();
export const HEAD = () => healthzResponse();
