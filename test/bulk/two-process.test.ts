// Two app processes sharing one PostgreSQL run one bulk job together: every item runs exactly once, the job
// completes, and usage is exactly the reservation (no unit charged twice). Runs against DATABASE_URL, or the local
// PostgreSQL the development and CI machines provide, in a schema of its own.
import path from "node:path";
import { expect, it } from "vitest";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { useProcessSchema } from "../fakes/process-schema";

const shared = useProcessSchema("bulk2p");

async function run<T>(...args: string[]): Promise<T> {
  const out = await shared.runProcess(path.join(__dirname, "two-process-worker.ts"), args, {
    SERVICE_BULK_WORKER: "0",
    SERVICE_SCHEDULER: "0",
  });
  return JSON.parse(
    out
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .pop() ?? "{}",
  ) as T;
}

it("two processes sharing one PostgreSQL run a 40-item job once each, with exact usage", async () => {
  const prisma = await shared.client();
  try {
    const ws = await createWorkspace(prisma, { name: "two processes", plans: ["suite_business"] });
    const { id } = await run<{ id: string }>("create", ws.apiKey, "40");
    // Both start their passes at the same moment (each process first loads and connects).
    const startAt = String(Date.now() + 8_000);
    const [a, b] = await Promise.all([run<{ ran: number }>("drain", startAt), run<{ ran: number }>("drain", startAt)]);
    expect(a.ran + b.ran).toBe(40);

    const job = await prisma.bulkJob.findUniqueOrThrow({ where: { id } });
    expect(job.status).toBe("completed");
    expect(job.finishedAt).not.toBeNull();
    expect(job.unitsReserved).toBe(40);
    expect(job.unitsRefunded).toBe(0);
    const items = await prisma.bulkItem.findMany({ where: { jobId: id } });
    expect(items).toHaveLength(40);
    expect(items.every((i) => i.status === "succeeded")).toBe(true);
    const period = await prisma.usagePeriod.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    expect(period.used).toBe(40);
    // One lookup-history entry per item: a second run of an item would have written a second one.
    expect(await prisma.lookupHistory.count({ where: { workspaceId: ws.workspaceId } })).toBe(40);
  } finally {
    await prisma.$disconnect();
  }
}, 180_000);
