// The REST API at /v1 for a web Request: the route's handler (app/v1/[[...path]]/route.ts) under `next dev`, on
// Next's own request path (a target the production server leaves to Next) and in the tests and benchmarks. It is
// the REST door (./plain-door.ts) reached through WHATWG objects: the URL read as a URL parser reads it, the headers
// and the body (read under the route's cap, never buffered past it) handed over as the door reads them, and the
// door's answer as a Response that carries the refund of an answer that cannot be delivered (./undelivered.ts).
import { readBodyOrBroken } from "../http/respond";
import { answerRest } from "./plain-door";
import { UNDELIVERED } from "./undelivered";

/** Answers one /v1 request, observed as every answer of the API is (log line, metrics, span, correlation id). */
export async function handleRestRequest(req: Request): Promise<Response> {
  const receivedAt = performance.now();
  const url = new URL(req.url);
  const answer = await answerRest({
    method: req.method,
    url: url.pathname + url.search,
    headers: req.headers,
    body: (maxBytes) => readBodyOrBroken(req, maxBytes),
    base: url.origin,
    receivedAt,
  });
  const status = answer.status;
  const response = new Response(status === 204 || status === 304 ? null : answer.body, {
    status,
    headers: answer.headers,
  });
  if (answer.undelivered) Object.defineProperty(response, UNDELIVERED, { value: answer.undelivered });
  return response;
}
