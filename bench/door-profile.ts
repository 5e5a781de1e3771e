// Where the REST door's CPU goes on its cheapest paths (issue 44): GET /v1/ip/{ip}/geo with a key (a metered lookup)
// and without one (the 401 floor), through server/api/rest/plain-door.ts answerPlain in one process on the bench store,
// 16 in flight, profiled with V8's sampling profiler. Prints the CPU milliseconds per request of each and writes the
// profiles. The database server's own CPU is not in either.
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npx tsx bench/door-profile.ts
//   (BENCH_PROFILE_SECONDS, default 5; the profiles go to BENCH_CPU_PROF_DIR, default bench/results)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ipAt } from "./ips";
import { useBenchStore } from "./runner-store";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const IN_FLIGHT = 16;

async function load(ms: number, f: () => Promise<void>): Promise<number> {
  const end = Date.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (Date.now() < end) {
        await f();
        n++;
      }
    }),
  );
  return n;
}

async function main(): Promise<void> {
  const store = useBenchStore("door");
  const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 5);
  const dir = path.resolve(process.env.BENCH_CPU_PROF_DIR?.trim() || path.join(root, "bench", "results"));
  mkdirSync(dir, { recursive: true });
  const { getDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { answerPlain } = await import("../server/api/rest/plain-door");
  const db = await getDb();
  const ws = await createWorkspace(db, { name: "bench door", plans: ["lookups_growth"] });
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  const profiled = async (name: string, f: () => Promise<void>) => {
    await load(2000, f);
    const before = process.cpuUsage();
    await session.post("Profiler.start");
    const n = await load(seconds * 1000, f);
    const { profile } = await session.post("Profiler.stop");
    const cpu = process.cpuUsage(before);
    const file = path.join(dir, `door-${name}-${process.pid}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return { requests: n, cpuMsPerRequest: Math.round(((cpu.user + cpu.system) / 1000 / n) * 1000) / 1000, file };
  };
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
