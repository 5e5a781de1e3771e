// In-process timing of bulk jobs (issue: bulk jobs): a 100-target IP reputation job on the shipped data and a
// 100-target DNS job against the local fake DNS server, each from POST /v1/jobs (through the REST handler, one
// atomic reservation) to its last recorded result, run by the queue's bulk worker passes (drainBulkItems, the
// process's default concurrency). Checks that each job charged exactly its 100 units and refunded none. Prints one
// JSON line. Store: embedded in a temp dir, or PostgreSQL when BENCH_DATABASE_URL is set (own schema).
import { performance } from "node:perf_hooks";
import { useBenchStore } from "./runner-store";
import { startFakeDnsServer } from "../test/fakes/dns-server";

export interface BulkFigures {
  store: string;
  jobs: {
    name: string;
    targets: number;
    totalMs: number;
    msPerItem: number;
    succeeded: number;
    failed: number;
    unitsCharged: number;
    unitsRefunded: number;
    unitsExact: boolean;
  }[];
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function main(): Promise<void> {
  const store = useBenchStore("bulk");
  const domains = Array.from({ length: 100 }, (_, i) => `host${i}.bench.test`);
  const dns = await startFakeDnsServer({
    records: Object.fromEntries(domains.map((d, i) => [d, [{ type: "A" as const, data: `192.0.2.${i + 1}` }]])),
  });
  process.env.SERVICE_DNS_SERVERS = dns.address;

  const { getDb, closeDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { handleRestRequest } = await import("../server/api/rest/handler");
  const { drainBulkItems } = await import("../server/bulk/worker");
  const { warmIpFeeds } = await import("../server/ip/reputation");
  const db = await getDb();
  await warmIpFeeds();
  const ws = await createWorkspace(db, {
    name: "bench bulk",
    plans: ["suite_business"],
    ownerEmail: "bench-bulk@example.com",
  });

  const ips = Array.from(
    { length: 100 },
    (_, i) => `${[8, 1, 45, 185, 104][i % 5]}.${(i * 7) % 250}.${(i * 13) % 250}.${(i % 200) + 1}`,
  );
  const jobs: BulkFigures["jobs"] = [];
  for (const [name, kind, targets] of [
    ["100-target IP reputation job (shipped data)", "ip", ips],
    ["100-target DNS job (local fake DNS server)", "dns", domains],
  ] as const) {
    const started = performance.now();
    const res = await handleRestRequest(
      new Request("http://127.0.0.1:3000/v1/jobs", {
        method: "POST",
        headers: { Authorization: `Bearer ${ws.apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ kind, targets }),
      }),
    );
    const created = (await res.json()) as { id?: string; error?: unknown };
    if (res.status !== 202 || !created.id)
      throw new Error(`POST /v1/jobs answered ${res.status}: ${JSON.stringify(created)}`);
    await drainBulkItems(db);
    const totalMs = performance.now() - started;
    const job = await db.bulkJob.findUniqueOrThrow({ where: { id: created.id } });
    const items = await db.bulkItem.groupBy({ by: ["status"], where: { jobId: job.id }, _count: true });
    const count = (s: string) => items.find((i) => i.status === s)?._count ?? 0;
    const charged = job.unitsReserved - job.unitsRefunded;
    jobs.push({
      name,
      targets: targets.length,
      totalMs: round(totalMs),
      msPerItem: round(totalMs / targets.length, 2),
      succeeded: count("succeeded"),
      failed: count("failed"),
      unitsCharged: charged,
      unitsRefunded: job.unitsRefunded,
      unitsExact: charged === targets.length && count("succeeded") === targets.length,
    });
  }
  await dns.close();
  await closeDb();
  console.log(JSON.stringify({ store, jobs } satisfies BulkFigures));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
