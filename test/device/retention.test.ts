// Device observations (IP, email and account seen with a device) are purged by the retention job with the rule of
// the assessment events that carry the same data: kept for the longer of 90 days and the plan's history window.
import { beforeAll, expect, it } from "vitest";
import { deviceIdOf, observeDevice } from "../../server/device/observations";
import { runRetentionPurge } from "../../server/maintenance/purge";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const NOW = new Date("2027-06-01T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

async function observationsAged(workspaceId: string, ages: number[]) {
  const deviceId = deviceIdOf("visitor-retention-1");
  for (const age of ages) {
    await observeDevice(app.db, {
      workspaceId,
      deviceId,
      ip: `203.0.113.${age % 250}`,
      email: `u${age}@example.test`,
      userId: null,
      windowMinutes: 60,
    });
    await app.db.deviceObservation.updateMany({
      where: { workspaceId, email: `u${age}@example.test` },
      data: { createdAt: daysAgo(age) },
    });
  }
}

const ages = async (workspaceId: string) =>
  (await app.db.deviceObservation.findMany({ where: { workspaceId }, select: { email: true } }))
    .map((o) => Number(o.email!.slice(1).split("@")[0]))
    .sort((a, b) => a - b);

it("keeps device observations for 90 days at least, for the plan's history window when longer, then deletes them", async () => {
  const free = await app.seedWorkspace({ plans: ["free"] });
  const starter = await app.seedWorkspace({ plans: ["suite_starter"] });
  const agency = await app.seedWorkspace({ plans: ["suite_agency"] });
  for (const ws of [free, starter, agency]) await observationsAged(ws.workspaceId, [1, 89, 91, 200, 364, 366, 500]);

  const result = await runRetentionPurge(app.db, NOW);
  expect(await ages(free.workspaceId)).toEqual([1, 89]);
  expect(await ages(starter.workspaceId)).toEqual([1, 89]);
  expect(await ages(agency.workspaceId)).toEqual([1, 89, 91, 200, 364]);
  expect(result.deviceObservations).toBe(5 + 5 + 2);

  // A second run finds nothing more to delete.
  expect((await runRetentionPurge(app.db, NOW)).deviceObservations).toBe(0);
});
