// A project's scan builds each scan's finding list once: the scan's own (for its diff and for the count kept in its
// summary) and, when there is a base, the base's. The summary's count is the scan's own findings. Counted with
// findingListsBuilt around the request (server/projects/findings.ts), never by timing.
import { beforeEach, describe, expect, it } from "vitest";
import { findingListsBuilt, findingsOf } from "../../server/projects/findings";
import type { ScanReport } from "../../server/vulnerabilities/lockfile-scan/schemas";
import { createTestApp } from "../harness";
import { useFakeEpss, useFakePackageSources } from "../vulnerabilities/fake-sources";
import { FIRST, SECOND } from "./lockfiles";

useFakePackageSources();
useFakeEpss();
// The machine's other work must not turn a slow fake into an unavailable OSV (the rule under test is not timing).
beforeEach(() => {
  process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "20000";
});
const app = await createTestApp();

const scan = (key: string, body: string) =>
  app.request("POST", "/v1/vulnerabilities/scan?project=acme/web", {
    key,
    body,
    headers: { "Content-Type": "text/plain" },
  });

/** The request's answer and how many finding lists it built. */
async function counted(key: string, body: string) {
  const before = findingListsBuilt();
  const answer = await scan(key, body);
  return { answer, built: findingListsBuilt() - before };
}

describe("a project's scan", () => {
  it("builds the scan's findings once, and the base's once", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const first = await counted(ws.apiKey, FIRST);
    expect(first.answer.status, JSON.stringify(first.answer.body)).toBe(200);
    expect(first.answer.body.diff.base).toBeNull();
    expect(first.built).toBe(1); // no base: the scan's own list only

    const second = await counted(ws.apiKey, SECOND);
    expect(second.answer.status, JSON.stringify(second.answer.body)).toBe(200);
    expect(second.answer.body.diff.base).toMatchObject({ scan_id: first.answer.body.project.scan_id });
    expect(second.built).toBe(2); // the scan's and the base's

    // The count kept with each scan is its own findings'.
    const list = await app.request("GET", "/v1/projects/acme%2Fweb/scans", { key: ws.apiKey });
    expect(list.status).toBe(200);
    const own = (a: ScanReport) => findingsOf(a).length;
    expect(list.body.items.map((s: { summary: { findings: number } }) => s.summary.findings)).toEqual([
      own(second.answer.body),
      own(first.answer.body),
    ]);
    expect(own(second.answer.body)).toBeGreaterThan(0);
  });
});
