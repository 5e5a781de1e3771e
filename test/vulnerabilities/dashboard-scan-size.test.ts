// The dashboard's lockfile scan takes what the API takes (issue 46, item 6): the limit is the scan procedure's own
// (its raw-body meta), which the page reads for the panel and the dashboard endpoint turns into room for the field's
// JSON form. A 5 MB lockfile is previewed and scanned through the dashboard's path; one past the limit is refused
// with 400 and costs nothing.
import { describe, expect, it } from "vitest";
import { procedureFieldLimit } from "../../app/dashboard/_components/procedure-cost";
import { utf8Bytes } from "../../app/dashboard/vulnerabilities/lockfile-size";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { jsonBodyLimitFor } from "../../server/api/rest/body-rules";
import type { SessionUser } from "../../server/auth/principal";
import { MAX_SCAN_BYTES } from "../../server/vulnerabilities/lockfile-scan/read";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp } from "../harness";
import { useFakeEpss, useFakePackageSources } from "./fake-sources";

useFakePackageSources();
useFakeEpss();
const app = await createTestApp();
const ORIGIN = "http://127.0.0.1:3000";

async function signedInOwner(email: string) {
  const u = await ensureUser(app.db, { email });
  const user: SessionUser = { userId: u.id, email: u.email, name: null };
  const ws = await createWorkspace(app.db, {
    name: `${email}'s`,
    plans: ["suite_business"],
    ownerEmail: email,
    ownerUserId: u.id,
  });
  return { user, workspaceId: ws.workspaceId };
}

async function mutate(path: string, input: unknown, user: SessionUser, workspaceId: string) {
  const body = JSON.stringify(input);
  const res = await handleDashboardRequest(
    new Request(`${ORIGIN}/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN, "x-service-workspace": workspaceId },
      body,
    }),
    async () => user,
  );
  return { status: res.status, body: (await res.json()) as any, sent: Buffer.byteLength(body) };
}

/**
 * A package-lock of about `bytes` bytes: three package versions of the fake sources, the one listed thousands of times
 * as nested copies (one target, one unit), as a large monorepo's lockfile repeats its common dependencies.
 */
function largeLockfile(bytes: number): string {
  const packages: Record<string, unknown> = {
    "": { name: "big-app", version: "1.0.0", dependencies: { "@acme/widget": "^1.0.0", "tinted-logs": "^1.4.0" } },
    "node_modules/@acme/widget": { version: "1.0.0" },
    "node_modules/tinted-logs": { version: "1.4.3" },
  };
  const entry = {
    version: "3.4.1",
    resolved: "https://registry.example.test/jquery/-/jquery-3.4.1.tgz",
    integrity: `sha512-${"Q".repeat(86)}==`,
  };
  let size = JSON.stringify({ lockfileVersion: 3, packages }).length;
  for (let i = 0; size < bytes; i++) {
    const key = `node_modules/workspace-${i}/node_modules/jquery`;
    packages[key] = entry;
    size += key.length + JSON.stringify(entry).length + 30;
  }
  return JSON.stringify({ name: "big-app", version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2);
}

describe("the dashboard's lockfile scan", () => {
  it("reads its limit from the scan procedure, the same one the API applies", () => {
    expect(procedureFieldLimit("vulnerabilities.scan")).toBe(MAX_SCAN_BYTES);
    expect(procedureFieldLimit("vulnerabilities.scanPreview")).toBe(MAX_SCAN_BYTES);
    // The endpoint's room for the field's JSON form: every quote and line break of a full-size file escaped.
    expect(jsonBodyLimitFor(MAX_SCAN_BYTES)).toBeGreaterThanOrEqual(2 * MAX_SCAN_BYTES);
    // The panel counts bytes as the API's raw body does: UTF-8.
    expect(utf8Bytes('{"a": "é€😀"}')).toBe(Buffer.byteLength('{"a": "é€😀"}'));
    expect(utf8Bytes("\ud800x")).toBe(Buffer.byteLength("\ud800x")); // a lone surrogate is sent as U+FFFD
  });

  it("previews and scans a 5 MB lockfile through the dashboard endpoint, one unit per package version", async () => {
    process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "30000"; // a loaded machine's first request (see malware-report)
    const { user, workspaceId } = await signedInOwner("big-lockfile@example.test");
    const lockfile = largeLockfile(5_000_000);
    expect(Buffer.byteLength(lockfile)).toBeGreaterThan(5_000_000);

    const preview = await mutate("vulnerabilities.scanPreview", { lockfile }, user, workspaceId);
    expect(preview.sent).toBeGreaterThan(5_000_000); // its JSON form, escaped, is larger still
    expect(preview.status, JSON.stringify(preview.body).slice(0, 500)).toBe(200);
    expect(preview.body.result.data).toMatchObject({ format: "package-lock", packages: 3, canRun: true });

    const scan = await mutate("vulnerabilities.scan", { lockfile }, user, workspaceId);
    expect(scan.status, JSON.stringify(scan.body).slice(0, 500)).toBe(200);
    const report = scan.body.result.data;
    expect(report.summary.packages).toBe(3);
    expect(report.packages.map((p: any) => `${p.name}@${p.version}`).sort()).toEqual([
      "@acme/widget@1.0.0",
      "jquery@3.4.1",
      "tinted-logs@1.4.3",
    ]);
    expect(await app.used(workspaceId)).toBe(3);
  });

  it("refuses a lockfile past the limit with 400, as the API does, and costs nothing", async () => {
    const { user, workspaceId } = await signedInOwner("too-big-lockfile@example.test");
    const lockfile = largeLockfile(MAX_SCAN_BYTES + 1000);
    expect(lockfile.length).toBeGreaterThan(MAX_SCAN_BYTES);
    const scan = await mutate("vulnerabilities.scan", { lockfile }, user, workspaceId);
    expect(scan.status).toBe(400);
    expect(scan.body.error.data.appCode).toBe("INVALID_REQUEST");
    expect(await app.used(workspaceId)).toBe(0);

    // Other procedures keep the endpoint's default: a 2 MB body to one of them is refused unread.
    const other = await mutate("account.createKey", { name: "x".repeat(2_000_000) }, user, workspaceId);
    expect(other.status).toBe(400);
    expect(other.body.error.message).toBe("The request body is larger than 1000000 bytes.");
  });
});
