// Run as a separate process by two-process.test.ts against a shared PostgreSQL schema:
//   create KEY N     -> POST /v1/jobs with N IP targets through the real REST API; prints the job id
//   drain START_AT   -> waits until START_AT (ms since epoch), runs bulk worker passes until nothing is runnable;
//                       prints how many items this process ran
import { drainBulkItems } from "../../server/bulk/worker";
import { closeDb, getDb } from "../../server/db/client";
import { flushLookupHistory } from "../../server/history/history";
import { restRequest } from "../harness";

const [mode, a, b] = process.argv.slice(2);
const db = await getDb();
if (mode === "create") {
  const targets = Array.from({ length: Number(b) }, (_, i) => `8.8.${i}.${i + 1}`);
  const res = await restRequest("POST", "/v1/jobs", { key: a, body: { kind: "ip", targets } });
  if (res.status !== 202) throw new Error(`POST /v1/jobs answered ${res.status}: ${res.text}`);
  console.log(JSON.stringify({ id: res.body.id }));
} else if (mode === "drain") {
  const wait = Number(a) - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const ran = await drainBulkItems(db, { perJob: 2, limit: 2 });
  await flushLookupHistory();
  console.log(JSON.stringify({ ran }));
}
await closeDb();
