// Events, audit included, are kept for the longer of 90 days and the plan's history window, then purged by the
// retention job.
import { beforeAll, expect, it } from "vitest";
import { recordAudit } from "../../server/audit/audit";
import { recordEvent } from "../../server/events/events";
import { eventRetentionDays, runRetentionPurge } from "../../server/maintenance/purge";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const NOW = new Date("2027-06-01T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

async function eventsAged(workspaceId: string, ages: number[]) {
  for (const age of ages) {
    const id =
      age % 2 === 0
        ? await recordEvent(app.db, { workspaceId, requestId: `req_${age}`, type: "assessment", data: {} })
        : await recordAudit(app.db, {
            workspaceId,
            requestId: `req_${age}`,
            type: "audit.rule.created",
            actor: { kind: "operator" },
            target: { kind: "rule", id: "r" },
          });
    await app.db.event.update({ where: { id }, data: { createdAt: daysAgo(age) } });
  }
}

const ages = async (workspaceId: string) =>
  (await app.db.event.findMany({ where: { workspaceId }, select: { requestId: true } }))
    .map((e) => Number(e.requestId.slice(4)))
    .sort((a, b) => a - b);

it("keeps events for 90 days at least, and for the plan's history window when it is longer", async () => {
  expect(
    [["free"], ["suite_starter"], ["suite_business"], ["suite_agency"], ["free", "lookups_growth"]].map(
      eventRetentionDays,
    ),
  ).toEqual([90, 90, 90, 365, 365]);

  const free = await app.seedWorkspace({ plans: ["free"] });
  const starter = await app.seedWorkspace({ plans: ["suite_starter"] });
  const agency = await app.seedWorkspace({ plans: ["suite_agency"] });
  const downgraded = await app.seedWorkspace({ plans: ["free"] });
  // An agency plan that has ended no longer holds its 365-day window.
  await app.db.subscription.create({
    data: {
      id: `sub_old_${downgraded.workspaceId}`,
      workspaceId: downgraded.workspaceId,
      plan: "suite_agency",
      status: "canceled",
      canceledAt: daysAgo(10),
    },
  });
  for (const ws of [free, starter, agency, downgraded])
    await eventsAged(ws.workspaceId, [1, 89, 91, 200, 364, 366, 500]);

  const result = await runRetentionPurge(app.db, NOW);
  expect(result.events).toBeGreaterThanOrEqual(4 * 2 + 3 * 3);
  expect(await ages(free.workspaceId)).toEqual([1, 89]);
  expect(await ages(starter.workspaceId)).toEqual([1, 89]);
  expect(await ages(downgraded.workspaceId)).toEqual([1, 89]);
  expect(await ages(agency.workspaceId)).toEqual([1, 89, 91, 200, 364]);

  // A second run finds nothing more to delete for these workspaces.
  await runRetentionPurge(app.db, NOW);
  expect(await ages(agency.workspaceId)).toEqual([1, 89, 91, 200, 364]);
});
