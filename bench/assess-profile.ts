// Where an assessment's CPU goes, in one process (issue 45, item 7): the checkout or login scenario's requests
// (bench/assess-fixtures.ts) through the REST door (server/api/rest/plain-door.ts answerPlain, as the production
// server hands them over from node:http) on the bench store, 8 in flight, profiled with V8's sampling profiler;
// then the bare reference (bench/reference-assess.ts) on the same requests in the same process. Prints the CPU
// milliseconds per request of each and writes both profiles (open them in Chrome DevTools, or sum their self time by
// file). The database server's own CPU is not in either: on PostgreSQL it is another process.
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npx tsx bench/assess-profile.ts checkout
//   (or login; BENCH_PROFILE_SECONDS, default 8; the profiles go to BENCH_CPU_PROF_DIR, default bench/results)
import { checkoutAt, loginAt } from "./assess-fixtures";
import { profiler } from "./profile-loop";
import { useBenchStore } from "./runner-store";

const IN_FLIGHT = 8;

async function main(): Promise<void> {
  const store = useBenchStore("profile");
  const which = process.argv[2] === "login" ? "login" : "checkout";
  const at = which === "login" ? loginAt : checkoutAt;
  const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 8);

  const { getDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { answerPlain } = await import("../server/api/rest/plain-door");
  const { warmIpFeeds } = await import("../server/ip/reputation");
  const { referenceAssess, referenceWorkspace } = await import("./reference-assess");
  const db = await getDb();
  await warmIpFeeds();
  const ws = await createWorkspace(db, { name: "bench profile", plans: ["suite_agency"] });

  const profiled = await profiler({ prefix: `assess-${which}`, inFlight: IN_FLIGHT, seconds, warmMs: 3000 });

  let i = 0;
  const service = await profiled("service", async () => {
    const body = JSON.stringify(at(i++));
    const a = await answerPlain({
      method: "POST",
      url: "/v1/assess",
      headers: {
        authorization: `Bearer ${ws.apiKey}`,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
      },
      body: Buffer.from(body),
      base: "http://127.0.0.1:3000",
    });
    if (a.status !== 200) throw new Error(`POST /v1/assess answered ${a.status}: ${a.body.slice(0, 300)}`);
  });
  const ref = referenceWorkspace();
  let j = 0;
  // As the reference server: the body parsed from its JSON, the answer written as JSON.
  const reference = await profiled("reference", async () => {
    JSON.stringify(await referenceAssess(ref, JSON.parse(JSON.stringify(at(j++)))));
  });
  console.log(JSON.stringify({ scenario: which, store, inFlight: IN_FLIGHT, seconds, service, reference }));
  if (store === "postgres") {
    const { databaseSchema } = await import("../server/db/config");
    await db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${databaseSchema()}" CASCADE`);
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
