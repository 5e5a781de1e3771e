// Two app processes sharing one PostgreSQL add to the same request-outcome counter at the same time: both count
// (the counters are added with INSERT .. ON CONFLICT, never read, changed and written back), and what a process
// still held at shutdown is written by closeDb. Runs against DATABASE_URL, or the local PostgreSQL the development
// and CI machines provide, in a schema of its own.
import path from "node:path";
import { expect, it } from "vitest";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { useProcessSchema } from "../fakes/process-schema";

const shared = useProcessSchema("outcomes2p");

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

it("two processes answering the same workspace's requests add up to one counter with every request", async () => {
  const prisma = await shared.client();
  try {
    const ws = await createWorkspace(prisma, { name: "two processes", plans: ["suite_business"] });
    const startAt = String(Date.now() + 8_000);
    const [a, b] = await Promise.all([
      run<{ notFound: number }>("hit", ws.apiKey, "25", startAt),
      run<{ notFound: number }>("hit", ws.apiKey, "25", startAt),
    ]);
    expect(a.notFound + b.notFound).toBe(50);
    const rows = await prisma.requestOutcomeDaily.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(rows.map((r) => [r.procedure, r.apiKeyId, r.status, r.count])).toEqual([
      ["rules.get", ws.apiKeyId, 404, 50],
    ]);
  } finally {
    await prisma.$disconnect();
  }
}, 180_000);
