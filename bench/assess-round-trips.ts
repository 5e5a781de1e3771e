// Round trips per assessment on PostgreSQL (issue 45, item 7: "no extra round trip per assessment"): the benchmark's
// checkout and login requests (bench/assess-fixtures.ts) as the plain /assess door runs them, the reservation
// carrying the velocity read (server/quota/grouped-reserve.ts with server/assessment/assess.ts velocityAlongside)
// and then assess(), one at a time, with and without their phone and payment fields. Every statement the process
// sends to PostgreSQL is counted where node-postgres sends it (Client#query, the one way to the server for both
// pools and Prisma's adapter), by the statement's name or first words. Authentication and the answer's framing are
// the door's, the same for both kinds of request, and left out.
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npx tsx bench/assess-round-trips.ts
//
// Prints one JSON line: for each scenario and kind, the assessments, the statements, the statements per assessment
// and the statements by name. A schema of its own (bench/runner-store.ts), dropped at the end.
import { checkoutAt, loginAt } from "./assess-fixtures";
import { useBenchStore } from "./runner-store";

const WARM_UP = 40;
const MEASURED = Number(process.env.BENCH_ROUND_TRIPS_REQUESTS ?? 200);

/** The request without its issue 45 identity and payment fields. */
function bare(body: Record<string, unknown>): Record<string, unknown> {
  const { phone: _p, phone_country: _c, payment: _pay, ...rest } = body;
  return rest;
}

async function main(): Promise<void> {
  if (useBenchStore("round_trips") !== "postgres")
    throw new Error("set BENCH_DATABASE_URL: the round trips are counted on PostgreSQL");
  const pg = (await import("pg")).default;
  const seen: string[] = [];
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { name?: string; text?: string };
    const text = typeof q === "string" ? q : (q?.name ?? q?.text ?? "?");
    seen.push(text.replace(/\s+/g, " ").trim().slice(0, 48));
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;

  const { getDb, closeDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { reserveUnitsGrouped } = await import("../server/quota/grouped-reserve");
  const { assess, velocityAlongside } = await import("../server/assessment/assess");
  const { assessRequestSchema } = await import("../server/assessment/schemas");
  const { warmIpFeeds } = await import("../server/ip/reputation");
  const { newId } = await import("../server/ids");
  const db = await getDb();
  await warmIpFeeds();

  const runOne = async (workspaceId: string, body: unknown) => {
    const request = assessRequestSchema.parse(body);
    const requestId = newId("req");
    const along = velocityAlongside(workspaceId, request);
    const q = await reserveUnitsGrouped(db, {
      workspaceId,
      units: 1,
      limit: 10_000_000,
      requestId,
      endpoint: "assess",
      read: along.read,
    });
    if (!q || q === "stale" || !q.read) throw new Error(`no reservation with its read: ${JSON.stringify(q)}`);
    await assess(db, { workspaceId, requestId, request, velocity: along.velocity(q.read) });
  };

  const results: Record<string, unknown>[] = [];
  for (const [scenario, at] of [
    ["checkout", checkoutAt],
    ["login", loginAt],
  ] as const) {
    for (const kind of ["without phone and payment", "with phone and payment"] as const) {
      const ws = await createWorkspace(db, { name: `bench round trips ${scenario} ${kind}`, plans: ["suite_agency"] });
      const bodyAt = (i: number) => (kind.startsWith("with ") ? at(i) : bare(at(i) as Record<string, unknown>));
      for (let i = 0; i < WARM_UP; i++) await runOne(ws.workspaceId, bodyAt(i));
      // Let the statistics' refresh the warm-up started (server/db/statistics.ts, never awaited) finish first.
      await new Promise((r) => setTimeout(r, 500));
      seen.length = 0;
      for (let i = WARM_UP; i < WARM_UP + MEASURED; i++) await runOne(ws.workspaceId, bodyAt(i));
      const byName: Record<string, number> = {};
      for (const s of seen) byName[s] = (byName[s] ?? 0) + 1;
      results.push({
        scenario,
        kind,
        assessments: MEASURED,
        statements: seen.length,
        perAssessment: Math.round((seen.length / MEASURED) * 100) / 100,
        byName,
      });
    }
  }
  console.log(JSON.stringify({ at: new Date().toISOString(), results }));
  const { databaseSchema } = await import("../server/db/config");
  await db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${databaseSchema()}" CASCADE`);
  await closeDb();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
