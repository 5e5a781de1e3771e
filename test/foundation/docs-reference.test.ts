// The API reference page (/docs): small however large the API grows (operations listed, details fetched per
// operation), one entry per operation (never the /v1/v1 spelling of an alias), and examples with real values.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import DocsPage from "../../app/docs/page";
import { exampleOf } from "../../app/docs/examples";
import { listedOperations, operationSlice } from "../../app/docs/reference";
import { getOpenApiDocument } from "../../server/api/rest/openapi";

const doc = getOpenApiDocument();

/** Every `"key": "key"` pair of an example: a property whose value is only its own name repeated. */
function echoes(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => echoes(v, into));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (v === k) into.push(k);
      echoes(v, into);
    }
  }
  return into;
}

describe("the /docs page", () => {
  it("lists every operation in a page of well under 300 KB, details left to be fetched when opened", async () => {
    const html = renderToStaticMarkup(await DocsPage());
    const listed = listedOperations(doc);
    expect(listed.length).toBeGreaterThan(50);
    expect(html.match(/data-testid="operation"/g)).toHaveLength(listed.length);
    // The server-rendered markup; Next adds about as much again as its payload, and the whole must stay < 300 KB.
    expect(Buffer.byteLength(html)).toBeLessThan(80_000);
    expect(html).not.toContain('data-testid="example-response"');
  });

  it("lists POST /captcha/test once, never at its /v1/v1 spelling", async () => {
    const html = renderToStaticMarkup(await DocsPage());
    expect(html).not.toContain("/v1/v1/");
    expect(listedOperations(doc).filter((o) => o.op.summary === doc.paths["/captcha/test"].post.summary)).toHaveLength(
      1,
    );
  });
});

describe("one operation's details", () => {
  it("carry the operation and every schema it refers to, the 202 of a bulk job included", () => {
    const slice = operationSlice(doc, "post-jobs")!;
    expect(Object.keys(slice.op.responses)).toContain("202");
    const text = JSON.stringify(slice);
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      expect(slice.doc.components.schemas[name], name).toBeDefined();
    }
    expect(operationSlice(doc, "post-v1-captcha-test")).toBeNull();
    expect(operationSlice(doc, "no-such-operation")).toBeNull();
  });

  it("give examples with real values: 8.8.8.8 in Mountain View, not a property's name as its value", () => {
    const geo = operationSlice(doc, "get-ip-ip-geo")!;
    const example = exampleOf(geo.doc, geo.op.responses["200"].content["application/json"].schema) as any;
    expect(example).toMatchObject({ ip: "8.8.8.8", country: { code: "US" }, city: "Mountain View" });
    expect(echoes(example)).toEqual([]);
  });
});
