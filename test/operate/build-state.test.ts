// `npm start` (scripts/start.mjs) regenerates the Prisma client before it builds when prisma/schema.prisma is newer
// than the generated client: after a `git pull` without `npm install`, the new code would otherwise be built against
// the old client, which reads none of the new columns (a review case's email came back null that way).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIsStale, clientIsStale } from "../../scripts/build-state.mjs";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A checkout with a schema and, unless `generatedAt` is null, a generated client, at the given times (seconds). */
function checkout(schemaAt: number, generatedAt: number | null): string {
  const root = mkdtempSync(path.join(tmpdir(), "build-state-"));
  roots.push(root);
  mkdirSync(path.join(root, "prisma"));
  const schema = path.join(root, "prisma", "schema.prisma");
  writeFileSync(schema, "// schema\n");
  utimesSync(schema, schemaAt, schemaAt);
  if (generatedAt !== null) {
    mkdirSync(path.join(root, "server", "db", "generated"), { recursive: true });
    const client = path.join(root, "server", "db", "generated", "client.ts");
    writeFileSync(client, "// client\n");
    utimesSync(client, generatedAt, generatedAt);
  }
  return root;
}

describe("the Prisma client's staleness before a build", () => {
  it("is stale when the schema changed after it was generated, or when it was never generated", () => {
    expect(clientIsStale(checkout(2_000_000_000, 1_900_000_000))).toBe(true);
    expect(clientIsStale(checkout(1_900_000_000, null))).toBe(true);
  });

  it("makes the build stale, also a build made after the schema changed (with the old client)", () => {
    const root = checkout(1_900_000_000, 1_800_000_000);
    const dist = path.join(root, process.env.SERVICE_NEXT_DIST_DIR || ".next");
    mkdirSync(dist);
    const buildId = path.join(dist, "BUILD_ID");
    writeFileSync(buildId, "x\n");
    utimesSync(buildId, 2_000_000_000, 2_000_000_000);
    utimesSync(path.join(root, "prisma"), 1_900_000_000, 1_900_000_000);
    expect(buildIsStale(root)).toBe(true);
    // Generated again: the build is current.
    const client = path.join(root, "server", "db", "generated", "client.ts");
    utimesSync(client, 1_950_000_000, 1_950_000_000);
    for (const dir of ["server/db/generated", "server/db", "server"])
      utimesSync(path.join(root, dir), 1_950_000_000, 1_950_000_000);
    expect(buildIsStale(root)).toBe(false);
  });

  it("is current when it was generated after the schema's last change, or when there is no schema", () => {
    expect(clientIsStale(checkout(1_900_000_000, 2_000_000_000))).toBe(false);
    const noSchema = checkout(1_900_000_000, 1_800_000_000);
    rmSync(path.join(noSchema, "prisma"), { recursive: true });
    expect(clientIsStale(noSchema)).toBe(false);
  });
});
