// The served OpenAPI document passes Spectral's spectral:oas and Redocly's recommended rules with no warning,
// except the trailing slashes the spec imposes (lint/spectral.yaml, lint/.redocly.lint-ignore.yaml).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { getOpenApiDocument } from "../../server/api/rest/openapi";

// Nothing here, nor any process this file starts, opens a database: the same run whatever DATABASE_URL says, so CI
// runs it once, not again on PostgreSQL (.ci/store-tests.mjs).
delete process.env.DATABASE_URL;

describe("OpenAPI document for tools", () => {
  it("declares every tag it uses, states contact and licence, and documents Retry-After on every 503", () => {
    const doc = getOpenApiDocument();
    const declared = new Set((doc.tags as { name: string; description: string }[]).map((t) => t.name));
    for (const ops of Object.values<Record<string, any>>(doc.paths)) {
      for (const op of Object.values<any>(ops)) {
        for (const tag of op.tags ?? []) expect(declared.has(tag)).toBe(true);
        if (op.responses?.["503"]) expect(op.responses["503"].headers["Retry-After"]).toBeDefined();
      }
    }
    expect(doc.info.contact.name).toBeTruthy();
    expect(doc.info.license.name).toBeTruthy();
    expect(Object.keys(doc.components.schemas).filter((n) => n.startsWith("error."))).toEqual([]);
  });

  it("passes `npm run lint:openapi` (Spectral and Redocly) with only the documented exceptions", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/lint-openapi.ts"],
      { timeout: 120_000 },
    );
    expect(stdout.trim()).toBe("OpenAPI lint: Spectral 0 problem(s); Redocly 0 problem(s), 4 documented exception(s).");
  }, 130_000);
});
