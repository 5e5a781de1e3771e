// The OpenAPI document built a router at a time for the warm-up (loadOpenApiDocument) is the one-piece build,
// byte for byte, and gives the event loop a turn between routers, where the one-piece build holds it throughout.
// Counted in event-loop turns, not timed: a loaded machine stretches any measured gap.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// Nothing here, nor any process this file starts, opens a database: the same run whatever DATABASE_URL says, so CI
// runs it once, not again on PostgreSQL (.ci/store-tests.mjs).
delete process.env.DATABASE_URL;

// Each build runs in its own process: the document is held once per process.
async function build(how: "sync" | "slices"): Promise<{ json: string; turns: number; routers: number }> {
  const code = `
    const { getOpenApiDocument, loadOpenApiDocument } = await import("./server/api/rest/openapi.ts");
    const { appRouter } = await import("./server/api/root.ts");
    const routers = new Set(Object.keys(appRouter._def.procedures).map((p) => p.split(".")[0])).size;
    let turns = 0, counting = true;
    const spin = () => { if (counting) { turns++; setImmediate(spin); } };
    setImmediate(spin);
    await new Promise((r) => setTimeout(r, 20));
    const before = turns;
    const doc = ${how === "sync" ? "getOpenApiDocument()" : "await loadOpenApiDocument()"};
    const during = turns - before;
    counting = false;
    console.log(JSON.stringify({ json: JSON.stringify(doc), turns: during, routers }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "--input-type=module", "-e", code],
    { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

describe("the OpenAPI document built in slices", () => {
  it("is the same document as the one-piece build, and yields to the event loop while it is built", async () => {
    const [whole, slices] = [await build("sync"), await build("slices")];
    expect(slices.json).toBe(whole.json);
    expect(whole.turns).toBe(0);
    expect(slices.turns).toBeGreaterThanOrEqual(slices.routers);
  }, 240_000);
});
