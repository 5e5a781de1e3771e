// A project monitor created while its project is being deleted: the check that the project has a stored scan and the
// monitor's insert are one transaction holding the project's latest default-ref scan, so either the creation comes
// first (and the deletion, which deletes the monitors watching the project in its own transaction, deletes it too) or
// the deletion does (and the creation is 400 INVALID_REQUEST, nothing written). Never a monitor watching nothing.
// On PostgreSQL the two are interleaved for certain: another connection holds the workspace's row, which the
// creation's transaction takes after its checks, while the deletion commits. The embedded store has one connection
// and runs them in turn: there the creation after the deletion is refused the same way.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../harness";
import { waitingBehind } from "../lock-waiters";
import { api } from "./helpers";

const app = await createTestApp();
const onPostgres = Boolean(process.env.DATABASE_URL);

/** A stored default-ref scan of the project, as POST /vulnerabilities/scan?project= keeps one. */
async function seedProject(workspaceId: string, project: string) {
  const now = new Date();
  await app.db.projectScan.create({
    data: {
      id: `psc_${project.replace(/\W/g, "_")}_${now.getTime()}`,
      workspaceId,
      project,
      ref: "default",
      format: "package-lock",
      packages: [{ ecosystem: "npm", name: "jquery", version: "3.4.1" }],
      report: {},
      summary: { packages: 1, vulnerable: 0, malware: 0, findings: 0, new: 0, fixed: 0, unchanged: 0, base: null },
      createdAt: now,
      expiresAt: new Date(now.getTime() + 30 * 86_400_000),
    },
  });
}

type Answer = Awaited<ReturnType<ReturnType<typeof api>>>;

/**
 * `change` and the deletion of `project`: on PostgreSQL `change` makes its checks and waits for the workspace's row,
 * held by another connection, while the deletion commits; on the embedded store the deletion, then `change`.
 */
async function deletedDuring(
  ws: { workspaceId: string; apiKey: string },
  project: string,
  change: () => Promise<Answer>,
): Promise<{ changed: Answer; deleted: Answer }> {
  const v1 = api(app, ws.apiKey);
  const deleteProject = () => v1("DELETE", `/v1/projects/${encodeURIComponent(project)}`);
  if (!onPostgres) {
    const deleted = await deleteProject();
    return { deleted, changed: await change() };
  }
  let changing: Promise<Answer> | undefined;
  const deleted = await app.db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, ws.workspaceId);
      const [{ pid: holder }] = await tx.$queryRawUnsafe<{ pid: number }[]>(`SELECT pg_backend_pid() AS pid`);
      changing = change();
      // The change has made its checks and waits for the workspace's row in its transaction.
      const until = Date.now() + 10_000;
      while ((await waitingBehind(app.db, holder!)) < 1 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      expect(await waitingBehind(app.db, holder!)).toBe(1);
      // The deletion needs nothing the holder holds: it commits while the change waits.
      return deleteProject();
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
  return { deleted, changed: await changing! };
}

describe("a project monitor created or retargeted while its project is deleted", () => {
  it("is refused when the deletion commits between the creation's checks and its insert", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const v1 = api(app, ws.apiKey);
    await seedProject(ws.workspaceId, "acme/web");
    const { changed: created, deleted } = await deletedDuring(ws, "acme/web", () =>
      v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"], interval: "24h" }),
    );
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ name: "acme/web", deleted: true, monitors_deleted: [] });
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.body.error.code).toBe("INVALID_REQUEST");
    expect(created.body.error.message).toContain("no stored scan");
    // Nothing was written: no monitor watching the deleted project, no audit event of one.
    expect(await app.db.monitor.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    expect(await app.db.event.count({ where: { workspaceId: ws.workspaceId, type: "audit.monitor.created" } })).toBe(0);
  });

  it("is refused when a monitor is moved to a project whose deletion commits meanwhile", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const v1 = api(app, ws.apiKey);
    await seedProject(ws.workspaceId, "acme/one");
    await seedProject(ws.workspaceId, "acme/two");
    const created = await v1("POST", "/v1/monitors", { target: "acme/one", checks: ["project"], interval: "24h" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { changed, deleted } = await deletedDuring(ws, "acme/two", () =>
      v1("PATCH", `/v1/monitors/${created.body.id}`, { target: "acme/two" }),
    );
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.monitors_deleted).toEqual([]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(400);
    expect(changed.body.error.message).toContain("Project acme/two has no stored scan");
    // The monitor still watches the project it watched, which still exists.
    const row = await app.db.monitor.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.target).toBe("acme/one");
  });

  it("is deleted with the project when the creation commits first", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const v1 = api(app, ws.apiKey);
    await seedProject(ws.workspaceId, "acme/api");
    const created = await v1("POST", "/v1/monitors", { target: "acme/api", checks: ["project"], interval: "24h" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const deleted = await v1("DELETE", "/v1/projects/acme%2Fapi");
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.monitors_deleted).toEqual([created.body.id]);
    expect(await app.db.monitor.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });
});
