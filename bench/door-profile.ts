// Where the REST door's CPU goes on its cheapest paths (issue 44): GET /v1/ip/{ip}/geo with a key (a metered lookup)
// and without one (the 401 floor), through server/api/rest/plain-door.ts answerPlain in one process on the bench store,
// 16 in flight, profiled with V8's sampling profiler. Prints the CPU milliseconds per request of each and writes the
// profiles. The database server's own CPU is not in either.
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npx tsx bench/door-profile.ts
//   (BENCH_PROFILE_SECONDS, default 5; the profiles go to BENCH_CPU_PROF_DIR, default bench/results)
import { rmSync } from "node:fs";
import { ipAt } from "./ips";
import { profiler } from "./profile-loop";
import { useBenchStore } from "./runner-store";

const IN_FLIGHT = 16;

async function main(): Promise<void> {
  const store = useBenchStore("door");
  const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 5);
  const { getDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { answerPlain } = await import("../server/api/rest/plain-door");
  const db = await getDb();
  const ws = await createWorkspace(db, { name: "bench door", plans: ["lookups_growth"] });
  const profiled = await profiler({ prefix: "door", inFlight: IN_FLIGHT, seconds, warmMs: 2000 });
  let i = 0;
  const geo = (key: string | null, status: number) => async () => {
    const a = await answerPlain({
      method: "GET",
      url: `/v1/ip/${ipAt(i++)}/geo`,
      headers: { host: "127.0.0.1:3000", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      base: "http://127.0.0.1:3000",
    });
    if (a.status !== status) throw new Error(`GET geo answered ${a.status}: ${a.body.slice(0, 300)}`);
  };
  const refused = await profiled("401", geo(null, 401));
  const metered = await profiled("geo", geo(ws.apiKey, 200));
  console.log(JSON.stringify({ store, inFlight: IN_FLIGHT, seconds, refused, metered }));
  if (store === "postgres") {
    const { databaseSchema } = await import("../server/db/config");
    await db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${databaseSchema()}" CASCADE`);
  } else if (process.env.SERVICE_DATA_DIR) rmSync(process.env.SERVICE_DATA_DIR, { recursive: true, force: true });
  process.exit(0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
