// Run as a separate process by two-process.test.ts against a shared PostgreSQL schema:
//   hit KEY N START_AT     -> waits until START_AT (ms since epoch), then makes N requests through the real REST API
//                             that are answered 404 (an unknown rule), in three batches flushed on their own, the last
//                             left to the shutdown flush; prints how many were answered 404
import { flushRequestOutcomes } from "../../server/analytics/request-outcomes";
import { closeDb, getDb } from "../../server/db/client";
import { restRequest } from "../harness";

const [mode, key, n, startAt] = process.argv.slice(2);
await getDb();
if (mode === "hit") {
  const wait = Number(startAt) - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  let notFound = 0;
  for (let i = 0; i < Number(n); i++) {
    const res = await restRequest("GET", "/v1/rules/rule_nope", { key });
    if (res.status === 404) notFound += 1;
    if (i % Math.ceil(Number(n) / 3) === 0) await flushRequestOutcomes();
  }
  console.log(JSON.stringify({ notFound }));
}
// closeDb flushes what is still pending, as a process does at shutdown.
await closeDb();
