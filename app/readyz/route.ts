// Readiness probe: 200 when every part is ready, 503 naming the part that is not (and from shutdown on).
import { readyzResponse } from "../../server/operate/probes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = () => readyzResponse();
