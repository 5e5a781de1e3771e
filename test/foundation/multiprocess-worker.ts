// Run as a separate process by multiprocess.test.ts: fires N concurrent metered requests through the real REST
// API against the shared PostgreSQL schema and prints the statuses as JSON.
import { closeDb } from "../../server/db/client";
import { restRequest } from "../harness";

const [key, count] = [process.argv[2], Number(process.argv[3])];
const results = await Promise.all(
  Array.from({ length: count }, (_, i) => restRequest("GET", `/v1/ip/1.1.${i % 250}.1/geo`, { key })),
);
console.log(JSON.stringify(results.map((r) => r.status)));
await closeDb();
