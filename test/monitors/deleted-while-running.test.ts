// A monitor deleted while a change to it is under way (PATCH sent at the same moment): the change is 404, never a
// 500 from updating a row already gone (PostgreSQL, where the requests really overlap).
// A monitor deleted while a run asked for by hand is under way (its checks waiting on a slow source): the run keeps
// nothing and charges nothing, and is answered 404 NOT_FOUND, as the monitor now is. It used to be a 500 (the run
// read the deleted row to store its states) that kept the run's unit. Both stores.
import { describe, expect, it } from "vitest";
import { flushLookupHistory } from "../../server/history/history";
import { createTestApp } from "../harness";
import { useFakePackageSources } from "../vulnerabilities/fake-sources";
import { api } from "./helpers";

const app = await createTestApp();
const sources = useFakePackageSources();

async function until(test: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a monitor deleted while it runs", () => {
  it("answers the run 404 and gives its unit back", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const created = await api(app, ws.apiKey)("POST", "/v1/monitors", {
      target: "acme-shop",
      checks: [{ type: "packages", packages: [{ ecosystem: "npm", name: "tinted-logs", version: "1.4.3" }] }],
    });
    expect(created.status).toBe(200);
    // The registry answers nothing until its timeout: the check is still under way when the monitor is deleted,
    // and then succeeds without it (a registry that fails costs only that package's supply-chain findings).
    process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "1500";
    sources.current.hang.add("npm");
    const run = api(app, ws.apiKey)("POST", `/v1/monitors/${created.body.id}/run`);
    await until(() => sources.current.requests.npm > 0);
    const deleted = await api(app, ws.apiKey)("DELETE", `/v1/monitors/${created.body.id}`);
    expect(deleted.status).toBe(200);

    const answer = await run;
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("NOT_FOUND");
    expect(answer.body.error.message).toMatch(/deleted while this run was under way/);
    expect(await app.used(ws.workspaceId)).toBe(0);
    const runs = await app.db.monitorRun.count({ where: { monitorId: created.body.id } });
    expect(runs).toBe(0);
  });

  it("gives back the units of its lookups that were answered, in their history entries too", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    // The first package's report is answered (and carries the check's unit); the second's registry hangs.
    const created = await api(app, ws.apiKey)("POST", "/v1/monitors", {
      target: "acme-shop",
      checks: [
        {
          type: "packages",
          packages: [
            { ecosystem: "pypi", name: "jinja2", version: "2.10" },
            { ecosystem: "npm", name: "tinted-logs", version: "1.4.3" },
          ],
        },
      ],
    });
    expect(created.status).toBe(200);
    process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "1500";
    sources.current.hang.add("npm");
    const run = api(app, ws.apiKey)("POST", `/v1/monitors/${created.body.id}/run`);
    await until(() => sources.current.requests.npm > 0);
    expect((await api(app, ws.apiKey)("DELETE", `/v1/monitors/${created.body.id}`)).status).toBe(200);
    expect((await run).status).toBe(404);
    expect(await app.used(ws.workspaceId)).toBe(0);
    // The answered lookup's entry gives its unit back: the month's entries add up to the units used (0).
    await flushLookupHistory();
    const entries = await app.db.lookupHistory.findMany({ where: { workspaceId: ws.workspaceId } });
    const answered = entries.filter((e) => e.target.includes("jinja2"));
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({
      status: 200,
      units: 0,
      summary: expect.objectContaining({
        refunded_units: 1,
        refund_reason: expect.stringMatching(/deleted while the run was under way/),
      }),
    });
    expect(entries.reduce((n, e) => n + (e.units ?? 0), 0)).toBe(0);
  });

  it("answers a change sent with its deletion 200 or 404, never 500", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    for (let round = 0; round < 3; round++) {
      const created = await api(app, ws.apiKey)("POST", "/v1/monitors", {
        target: "acme-shop",
        checks: [{ type: "packages", packages: [{ ecosystem: "npm", name: "tinted-logs", version: "1.4.3" }] }],
      });
      const path = `/v1/monitors/${created.body.id}`;
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, () => api(app, ws.apiKey)("PATCH", path, { interval: "6h" })),
        ...Array.from({ length: 4 }, () => api(app, ws.apiKey)("DELETE", path)),
      ]);
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.every((s) => s === 200 || s === 404),
        statuses.join(","),
      ).toBe(true);
      expect(answers.slice(4).filter((a) => a.status === 200)).toHaveLength(1);
    }
  });
});
