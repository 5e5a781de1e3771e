// vulnerabilities.scanPreview (dashboard only, issue 25 item 9): what a lockfile scan would cost, read exactly as the
// scan reads it, answered without reserving a unit or writing a ledger row; an unreadable file gets the scan's own
// 400 message; the answer says whether the scan can run (bulk entitlement, units left) in a sentence.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adjustUsage } from "../../server/quota/adjust";
import { call, ownerAndMember, type Seat } from "../dashboard/call";
import { createTestApp } from "../harness";

const fixture = (name: string) => readFileSync(path.join(__dirname, "scan-fixtures", name), "utf8");
const lock = fixture("package-lock.json");

const app = await createTestApp();

const preview = (seat: Seat, input: { lockfile: string; format?: string }) =>
  call(seat, "vulnerabilities.scanPreview", input, "mutation");

describe("vulnerabilities.scanPreview", () => {
  it("answers the units, the skipped dependencies and the format of a package-lock, consuming nothing", async () => {
    const { owner } = await ownerAndMember(app.db, "preview", ["suite_business"]);
    const res = await preview(owner, { lockfile: lock });
    expect(res.status).toBe(200);
    // jquery 3.4.1 is listed twice and is one unit; the git and link dependencies cost nothing.
    expect(res.data).toEqual({
      format: "package-lock",
      file: "package-lock.json",
      packages: 5,
      skipped: [
        expect.objectContaining({ name: "from-git", reason: expect.any(String) }),
        expect.objectContaining({ name: "local-lib", reason: expect.any(String) }),
      ],
      bulkRequired: true,
      unitsRemaining: 25_000,
      canRun: true,
      cannotRunReason: null,
    });
    expect(await app.used(owner.workspaceId)).toBe(0);
    expect(await app.ledgerCount(owner.workspaceId)).toBe(0);
    expect(await app.db.lookupHistory.count({ where: { workspaceId: owner.workspaceId } })).toBe(0);
  });

  it("lets a member (not owner) preview too", async () => {
    const { member } = await ownerAndMember(app.db, "preview-member", ["suite_business"]);
    const res = await preview(member, { lockfile: lock, format: "package-lock" });
    expect(res.status).toBe(200);
    expect(res.data.packages).toBe(5);
  });

  it("says in a sentence why a plan without bulk lookups cannot scan several packages, and allows one", async () => {
    const { owner } = await ownerAndMember(app.db, "preview-free", ["free"]);
    const several = await preview(owner, { lockfile: lock });
    expect(several.status).toBe(200);
    expect(several.data).toMatchObject({ packages: 5, bulkRequired: true, canRun: false });
    expect(several.data.cannotRunReason).toMatch(/^A scan of more than one package needs bulk lookups/);
    expect(several.data.cannotRunReason).toContain("Suite Business");

    const one = await preview(owner, { lockfile: fixture("requirements-one.txt") });
    expect(one.data).toMatchObject({
      format: "requirements",
      packages: 1,
      bulkRequired: false,
      canRun: true,
      cannotRunReason: null,
    });
    expect(await app.used(owner.workspaceId)).toBe(0);
  });

  it("says when the units left this month do not cover the scan", async () => {
    const { owner } = await ownerAndMember(app.db, "preview-quota", ["suite_business"]);
    await adjustUsage(app.db, { workspaceId: owner.workspaceId, units: 24_997, reason: "test seed" });
    const res = await preview(owner, { lockfile: lock });
    expect(res.data).toMatchObject({ packages: 5, unitsRemaining: 3, canRun: false });
    expect(res.data.cannotRunReason).toBe("This scan needs 5 units and 3 are left this month.");
    expect(await app.used(owner.workspaceId)).toBe(24_997);
  });

  it.each([
    ["a malformed package-lock", fixture("broken-lock.json"), "package-lock", /line \d+/i],
    ["a file whose every dependency is skipped", fixture("only-skipped.json"), undefined, /from-git/],
    ["an empty file", "  \n", undefined, /empty/],
  ])("refuses %s with 400 INVALID_REQUEST and the scan's own message", async (_label, lockfile, format, words) => {
    const { owner } = await ownerAndMember(app.db, "preview-bad", ["suite_business"]);
    const res = await preview(owner, { lockfile, format });
    expect(res.status).toBe(400);
    expect(res.code).toBe("INVALID_REQUEST");
    expect(res.message).toMatch(words);
    const scan = await call(owner, "vulnerabilities.scan", { lockfile, format }, "mutation");
    expect(scan.status).toBe(400);
    expect(res.message).toBe(scan.message);
    expect(await app.used(owner.workspaceId)).toBe(0);
  });

  it("answers another workspace's id as not found, and a caller without a session with 401", async () => {
    const { owner } = await ownerAndMember(app.db, "preview-a", ["suite_business"]);
    const { owner: other } = await ownerAndMember(app.db, "preview-b", ["suite_business"]);
    const foreign = await preview({ user: other.user, workspaceId: owner.workspaceId }, { lockfile: lock });
    expect(foreign.status).toBe(404);
    expect(foreign.code).toBe("NOT_FOUND");
    const anonymous = await preview({ user: null as never, workspaceId: owner.workspaceId }, { lockfile: lock });
    expect(anonymous.status).toBe(401);
    expect(anonymous.code).toBe("UNAUTHORIZED");
  });

  it("is not part of the REST API", async () => {
    const { appRouter } = await import("../../server/api/root");
    const procedures = appRouter._def.procedures as unknown as Record<
      string,
      { _def: { meta?: { openapi?: unknown } } }
    >;
    expect(procedures["vulnerabilities.scanPreview"]?._def.meta?.openapi).toBeUndefined();
  });
});
