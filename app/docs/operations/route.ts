// GET /docs/operations: the search index of the API reference (operation id -> its text, descriptions included),
// fetched by the search box when a reader first types, so the page itself carries only the summary lines.
import { loadOpenApiDocument } from "../../../server/api/rest/openapi";
import { searchIndex } from "../reference";

export const runtime = "nodejs";

export async function GET(): Promise<Response> {
  return Response.json(searchIndex(await loadOpenApiDocument()), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}
