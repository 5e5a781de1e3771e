// The lookup console builds each lookup's input from its form and calls the procedure with it, as the /v1 route
// would. A newcomer's walk ran the ASN lookup with its own example (15169) and got "AS number expected a string, got
// a number": the console sent the path parameter as a number (the OpenAPI document types it as an integer, 6e36ea9)
// where the route hands the procedure the path's text. Here every lookup whose input is its fields alone is built
// from its fields' examples and defaults and must pass the procedure's own input check.
import { describe, expect, it } from "vitest";
import { lookupCatalog } from "../../app/dashboard/console/catalog";
import { buildInput } from "../../app/dashboard/console/build-input";
import { appRouter } from "../../server/api/root";

type Parser = { safeParseAsync: (v: unknown) => Promise<{ success: boolean; error?: { message: string } }> };
const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { inputs: Parser[] } }> } })
  ._def.procedures;

const SAMPLES: Record<string, string> = { ip: "8.8.8.8", domain: "example.com", host: "example.com", asn: "15169" };

describe("the console's input for a lookup made of fields", () => {
  const entries = lookupCatalog().filter((e) => e.bodyTemplate === null && e.fields.length > 0);

  it("covers the ASN lookup, whose path parameter is documented as an integer", () => {
    const asn = entries.find((e) => e.procedure === "asn.asnLookup");
    expect(asn?.fields.find((f) => f.name === "asn")).toMatchObject({ in: "path", type: "integer" });
  });

  it.each(entries.map((e) => [e.procedure, e] as const))("%s: passes the procedure's input check", async (_, entry) => {
    const values: Record<string, string> = {};
    for (const f of entry.fields) {
      const v = f.example ?? f.defaultValue ?? SAMPLES[f.name] ?? f.enumValues?.[0];
      if (v !== undefined && v !== null) values[f.name] = v;
    }
    const input = buildInput(entry, values, "");
    for (const parser of procedures[entry.procedure]._def.inputs) {
      const result = await parser.safeParseAsync(input);
      expect(result.success, `${JSON.stringify(input)}: ${result.error?.message}`).toBe(true);
    }
  });

  it("sends the ASN as the text typed, as the route's path does, also with its AS prefix", async () => {
    const asn = entries.find((e) => e.procedure === "asn.asnLookup")!;
    expect(buildInput(asn, { asn: "15169" }, "")).toEqual({ asn: "15169" });
    const [parser] = procedures["asn.asnLookup"]._def.inputs;
    expect((await parser.safeParseAsync(buildInput(asn, { asn: "AS13335" }, ""))).success).toBe(true);
  });
});
