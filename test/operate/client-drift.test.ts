// The checked-in client types match the served OpenAPI document (CI also runs `npm run client:check`).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateClientSchema, SCHEMA_FILE } from "../../scripts/client-generate";
import { getOpenApiDocument } from "../../server/api/rest/openapi";

describe("clients/typescript/src/schema.ts", () => {
  it("is what `npm run client:generate` makes of the served document", async () => {
    const expected = await generateClientSchema(structuredClone(getOpenApiDocument()));
    expect(readFileSync(SCHEMA_FILE, "utf8") === expected, "run `npm run client:generate`").toBe(true);
  });
});
