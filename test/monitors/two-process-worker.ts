// Run as a separate process by two-process.test.ts against a shared PostgreSQL schema:
//   create KEY N     -> N monitors (a dns check on site.test) through the real REST API; prints their ids
//   run START_AT     -> waits until START_AT (ms since epoch), then runs the monitors task once, as the scheduler
//                       would; prints how many monitors this process ran
import { registerBulkProcedures } from "../../server/api/bulk-procedures";
import { closeDb, getDb } from "../../server/db/client";
import { flushLookupHistory } from "../../server/history/history";
import { runDueMonitors } from "../../server/monitors/task";
import { restRequest } from "../harness";

const [mode, a, b] = process.argv.slice(2);
const db = await getDb();
if (mode === "create") {
  const ids: string[] = [];
  for (let i = 0; i < Number(b); i++) {
    const res = await restRequest("POST", "/v1/monitors", {
      key: a,
      body: { name: `m${i}`, target: "site.test", checks: [{ type: "dns", record_types: ["A"] }], interval: "1h" },
    });
    if (res.status !== 200) throw new Error(`POST /v1/monitors answered ${res.status}: ${res.text}`);
    ids.push(res.body.id);
  }
  console.log(JSON.stringify({ ids }));
} else if (mode === "run") {
  registerBulkProcedures();
  const wait = Number(a) - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const { ran, failed } = await runDueMonitors(db, new Date());
  await flushLookupHistory();
  console.log(JSON.stringify({ ran, failed }));
}
await closeDb();
