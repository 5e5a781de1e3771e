// The OpenAPI document built a router at a time for the warm-up (loadOpenApiDocument) is the one-piece build,
// byte for byte, and never holds the event loop as long as the one-piece build does.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// Each build runs in its own process: the document is held once per process.
async function build(how: "sync" | "slices"): Promise<{ json: string; longestMs: number }> {
  const code = `
    const { getOpenApiDocument, loadOpenApiDocument } = await import("./server/api/rest/openapi.ts");
    let longest = 0, last = performance.now();
    const tick = setInterval(() => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; }, 1);
    await new Promise((r) => setTimeout(r, 20));
    last = performance.now();
    const doc = ${how === "sync" ? "getOpenApiDocument()" : "await loadOpenApiDocument()"};
    await new Promise((r) => setTimeout(r, 20));
    clearInterval(tick);
    console.log(JSON.stringify({ json: JSON.stringify(doc), longestMs: longest }));`;
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
    expect(slices.longestMs).toBeLessThan(whole.longestMs);
  }, 240_000);
});
