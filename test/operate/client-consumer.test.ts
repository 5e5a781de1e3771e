// The typed client compiles in an integrator's own project under `tsc --strict` with the module settings Node
// projects use (NodeNext, where a relative import needs its file extension), not only under this repository's
// bundler resolution: a consumer file outside the repository's sources imports clients/typescript/src/index.ts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const client = path.resolve("clients/typescript/src/index.ts");
const dir = mkdtempSync(path.join(tmpdir(), "client-consumer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const consumer = `
import { createServiceClient, readQuota, type ErrorCode } from ${JSON.stringify(client.replace(/\.ts$/, ".js"))};
const api = createServiceClient({ baseUrl: "http://127.0.0.1:1/v1", apiKey: "k" });
export async function geo(): Promise<string> {
  const { data, error, response } = await api.GET("/ip/{ip}/geo", { params: { path: { ip: "8.8.8.8" } } });
  if (error) {
    const code: ErrorCode = error.error.code;
    return code;
  }
  return String(data.country?.code) + String(readQuota(response)?.remaining);
}
`;

function diagnostics(options: ts.CompilerOptions): string[] {
  const file = path.join(dir, "consumer.mts");
  writeFileSync(file, consumer);
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, ...options });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? path.relative(process.cwd(), d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}

describe("the typed client in a consumer's project", () => {
  it("compiles with module NodeNext", () => {
    const found = diagnostics({
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
    });
    expect(found).toEqual([]);
  }, 60_000);

  it("compiles with bundler resolution", () => {
    const found = diagnostics({
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
    });
    expect(found).toEqual([]);
  }, 60_000);
});
