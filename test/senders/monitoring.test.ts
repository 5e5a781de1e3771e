// The daily sender check and the scheduler under it: one run across instances (two schedulers on one database),
// posture changes recorded as events with before and after, senders beyond the slots left alone, and a failed
// run kept on the lease and retried sooner.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { claimLease, runIfDue, startScheduler, type ScheduledTask } from "../../server/queue/scheduled";
import { scheduledTasks } from "../../server/startup/tasks";
import { runSenderChecks, SENDER_CHECK_TASK } from "../../server/senders/monitor";
import { setPlans } from "../../server/workspaces/workspaces";
import { startFakeDnsServer } from "../fakes/dns-server";
import { createTestApp } from "../harness";
import { healthyZone, ownWorkspace, publishVerification, senders, signedIn, useFakeDnsFor } from "./helpers";

const app = await createTestApp();
const dns = await startFakeDnsServer({
  records: { ...healthyZone("watched-mail.com"), ...healthyZone("other-mail.com") },
});
useFakeDnsFor(dns);
afterAll(() => dns.close());

const DAY = 24 * 60 * 60 * 1000;
const senderTask = scheduledTasks().find((t) => t.name === SENDER_CHECK_TASK)!;

beforeEach(async () => {
  await app.db.scheduleLease.deleteMany({});
  // Each test starts from healthy zones.
  for (const [name, recs] of Object.entries({ ...healthyZone("watched-mail.com"), ...healthyZone("other-mail.com") }))
    dns.setRecords(name, recs);
  dns.removeRecords("watched-mail.com.dbl.spamhaus.org");
});

async function verifiedSender(email: string, domain: string, plans = ["email"]) {
  const owner = await signedIn(app, email);
  const { workspaceId } = await ownWorkspace(app, owner, plans);
  const added = (await senders("POST", "", { user: owner, workspaceId }, { domain, dkim_selectors: ["s1"] })).body;
  publishVerification(dns, added);
  const verified = (await senders("POST", `/${added.id}/verify`, { user: owner, workspaceId })).body;
  expect(verified.status).toBe("verified");
  return { owner, workspaceId, sender: verified };
}

describe("scheduler", () => {
  it("runs a due task on exactly one of two schedulers sharing the database, then not again until the interval passes", async () => {
    let runs = 0;
    const task: ScheduledTask = { name: "test.count", everyMs: DAY, run: async () => void runs++ };
    const a = startScheduler(app.db, [task], { firstTickMs: 3_600_000 });
    const b = startScheduler(app.db, [task], { firstTickMs: 3_600_000 });
    try {
      const now = new Date("2026-11-23T03:00:00Z");
      const outcomes = await Promise.all([a.tick(now), b.tick(now)]);
      expect(outcomes.map((o) => o["test.count"]).sort()).toEqual(["not_due", "ran"]);
      expect(runs).toBe(1);
      expect(
        (
          await Promise.all([
            a.tick(new Date(now.getTime() + DAY - 1000)),
            b.tick(new Date(now.getTime() + DAY - 1000)),
          ])
        ).flatMap(Object.values),
      ).toEqual(["not_due", "not_due"]);
      const later = await Promise.all([a.tick(new Date(now.getTime() + DAY)), b.tick(new Date(now.getTime() + DAY))]);
      expect(later.map((o) => o["test.count"]).sort()).toEqual(["not_due", "ran"]);
      expect(runs).toBe(2);
      const lease = await app.db.scheduleLease.findUniqueOrThrow({ where: { name: "test.count" } });
      expect(lease).toMatchObject({
        leaseUntil: new Date(now.getTime() + 2 * DAY),
        lastRunAt: new Date(now.getTime() + DAY),
        lastError: null,
      });
    } finally {
      a.stop();
      b.stop();
    }
  });

  it("lets only one of many concurrent claims win the lease", async () => {
    const now = new Date("2026-11-23T04:00:00Z");
    const wins = await Promise.all(
      Array.from({ length: 8 }, () => claimLease(app.db, { name: "test.race", everyMs: DAY }, now)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it("keeps a failed run's error on the lease and lets it be retried after the retry delay", async () => {
    let attempts = 0;
    const task: ScheduledTask = {
      name: "test.flaky",
      everyMs: DAY,
      retryMs: 60_000,
      run: async () => {
        attempts++;
        if (attempts === 1) throw new Error("resolver exploded");
      },
    };
    const now = new Date("2026-11-23T05:00:00Z");
    expect(await runIfDue(app.db, task, now)).toBe("failed");
    expect(await app.db.scheduleLease.findUniqueOrThrow({ where: { name: "test.flaky" } })).toMatchObject({
      lastError: "resolver exploded",
      lastRunAt: null,
    });
    expect(await runIfDue(app.db, task, new Date(now.getTime() + 30_000))).toBe("not_due");
    expect(await runIfDue(app.db, task, new Date(now.getTime() + 60_000))).toBe("ran");
    expect(await app.db.scheduleLease.findUniqueOrThrow({ where: { name: "test.flaky" } })).toMatchObject({
      lastError: null,
    });
  });
});

describe("daily sender check", () => {
  it("checks verified senders once across two schedulers and stores the posture", async () => {
    const { sender } = await verifiedSender("once@monitor.test", "watched-mail.com");
    const a = startScheduler(app.db, [senderTask], { firstTickMs: 3_600_000 });
    const b = startScheduler(app.db, [senderTask], { firstTickMs: 3_600_000 });
    try {
      const now = new Date(Date.now() + 60_000);
      const before = dns.queries.filter((q) => q.name === "_dmarc.watched-mail.com").length;
      const outcomes = await Promise.all([a.tick(now), b.tick(now)]);
      expect(outcomes.map((o) => o[SENDER_CHECK_TASK]).sort()).toEqual(["not_due", "ran"]);
      expect(dns.queries.filter((q) => q.name === "_dmarc.watched-mail.com").length).toBeGreaterThanOrEqual(before + 1);
      const row = await app.db.sender.findUniqueOrThrow({ where: { id: sender.id } });
      expect(row.lastCheckedAt).toEqual(now);
      expect(row.posture).toMatchObject({ overall: "pass", checked_at: now.toISOString() });
    } finally {
      a.stop();
      b.stop();
    }
  });

  it("records a posture change as an event with before and after, and nothing when the posture holds", async () => {
    const { workspaceId, sender } = await verifiedSender("change@monitor.test", "watched-mail.com");
    await runSenderChecks(app.db);
    expect(await app.db.event.count({ where: { workspaceId, type: "sender.posture_changed" } })).toBe(0);

    dns.setRecords("_dmarc.watched-mail.com", [{ type: "TXT", data: ["v=DMARC1; p=none"] }]);
    dns.setRecords("watched-mail.com.dbl.spamhaus.org", [{ type: "A", data: "127.0.1.2" }]);
    const run = await runSenderChecks(app.db);
    expect(run.failed).toBe(0);
    const events = await app.db.event.findMany({ where: { workspaceId, type: "sender.posture_changed" } });
    expect(events).toHaveLength(1);
    expect(events[0].domain).toBe("watched-mail.com");
    const data = events[0].data as any;
    expect(data.sender_id).toBe(sender.id);
    expect(data.before).toMatchObject({
      overall: "pass",
      dmarc: { policy: "reject" },
      blocklists: { status: "not_listed" },
    });
    expect(data.after).toMatchObject({
      overall: "fail",
      dmarc: { policy: "none" },
      blocklists: { status: "listed", listed_on: ["dbl.spamhaus.org"] },
    });
    expect(data.after.blocklists.reason).toBe(
      "Listed on dbl.spamhaus.org: receivers using this list may reject or junk its mail. Look up the listing and ask for removal.",
    );

    await runSenderChecks(app.db);
    expect(await app.db.event.count({ where: { workspaceId, type: "sender.posture_changed" } })).toBe(1);
    const list = (await senders("GET", "", { user: await signedIn(app, "change@monitor.test"), workspaceId })).body;
    expect(list.items[0].posture.blocklists.status).toBe("listed");
  });

  it("does not read a resolver outage as a change of posture", async () => {
    const { workspaceId, sender } = await verifiedSender("outage@monitor.test", "watched-mail.com");
    dns.down = true;
    try {
      await runSenderChecks(app.db);
    } finally {
      dns.down = false;
    }
    const row = await app.db.sender.findUniqueOrThrow({ where: { id: sender.id } });
    expect((row.posture as any).overall).toBe("unknown");
    expect(await app.db.event.count({ where: { workspaceId, type: "sender.posture_changed" } })).toBe(0);
    await runSenderChecks(app.db);
    expect(await app.db.event.count({ where: { workspaceId, type: "sender.posture_changed" } })).toBe(0);
  });

  it("leaves senders beyond the slots after a downgrade unmonitored, the oldest keeping its slot", async () => {
    const { owner, workspaceId, sender: oldest } = await verifiedSender("slots@monitor.test", "watched-mail.com");
    const added = (await senders("POST", "", { user: owner, workspaceId }, { domain: "other-mail.com" })).body;
    publishVerification(dns, added);
    await senders("POST", `/${added.id}/verify`, { user: owner, workspaceId });
    await setPlans(app.db, { workspaceId, plans: ["suite_starter"] }); // 1 slot
    const at = new Date(Date.now() + 120_000);
    await runSenderChecks(app.db, at);
    expect((await app.db.sender.findUniqueOrThrow({ where: { id: oldest.id } })).lastCheckedAt).toEqual(at);
    expect((await app.db.sender.findUniqueOrThrow({ where: { id: added.id } })).lastCheckedAt).not.toEqual(at);
    await setPlans(app.db, { workspaceId, plans: ["free"] });
    const later = new Date(Date.now() + 180_000);
    await runSenderChecks(app.db, later);
    expect((await app.db.sender.findUniqueOrThrow({ where: { id: oldest.id } })).lastCheckedAt).toEqual(at);
    // Monitoring spends no lookup units.
    expect(await app.used(workspaceId)).toBe(0);
  });
});
