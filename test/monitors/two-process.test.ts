// Two app processes sharing one PostgreSQL run the monitors task at the same moment (issue 26, item 2: runs happen
// once across all instances): every due monitor runs exactly once, one unit per check, one run row each. Runs against
// DATABASE_URL, or the local PostgreSQL the development and CI machines provide, in a schema of its own; the fake DNS
// server on 127.0.0.1 answers both processes.
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";
import { useProcessSchema } from "../fakes/process-schema";

const shared = useProcessSchema("mon2p");
let dns: FakeDnsServer;

beforeAll(async () => {
  dns = await startFakeDnsServer({ records: { "site.test": [{ type: "A", data: "127.0.0.1" }] } });
});
afterAll(() => dns.close());

async function run<T>(...args: string[]): Promise<T> {
  const out = await shared.runProcess(path.join(__dirname, "two-process-worker.ts"), args, {
    SERVICE_BULK_WORKER: "0",
    SERVICE_SCHEDULER: "0",
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: dns.address,
    SERVICE_DNS_TIMEOUT_MS: "1000",
  });
  const line = out
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .pop();
  return JSON.parse(line ?? "{}") as T;
}

it("two processes sharing one PostgreSQL run each of 12 due monitors once, with exact usage", async () => {
  const prisma = await shared.client();
  try {
    const ws = await createWorkspace(prisma, { name: "two processes", plans: ["suite_business"] });
    const { ids } = await run<{ ids: string[] }>("create", ws.apiKey, "12");
    expect(ids).toHaveLength(12);
    // Every monitor due now (a new one's first slot is a fraction of its interval away).
    await prisma.monitor.updateMany({ where: { id: { in: ids } }, data: { nextRunAt: new Date(Date.now() - 1000) } });

    // Both start their task at the same moment (each process first loads and connects).
    const startAt = String(Date.now() + 8_000);
    const [p, q] = await Promise.all([
      run<{ ran: number; failed: number }>("run", startAt),
      run<{ ran: number; failed: number }>("run", startAt),
    ]);
    expect(p.failed + q.failed).toBe(0);
    expect(p.ran + q.ran).toBe(12);

    const runs = await prisma.monitorRun.findMany({ where: { monitorId: { in: ids } } });
    expect(runs).toHaveLength(12);
    expect(new Set(runs.map((r) => r.monitorId)).size).toBe(12);
    expect(runs.every((r) => r.status === "completed" && r.units === 1)).toBe(true);
    const period = await prisma.usagePeriod.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    expect(period.used).toBe(12);
    // Each monitor's next slot moved an interval on, so neither process runs it again this hour.
    const next = await prisma.monitor.findMany({ where: { id: { in: ids } }, select: { nextRunAt: true } });
    expect(next.every((m) => m.nextRunAt.getTime() > Date.now() + 30 * 60_000)).toBe(true);
  } finally {
    await prisma.$disconnect();
  }
}, 180_000);
