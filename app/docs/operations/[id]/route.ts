// GET /docs/operations/{id}: one operation of the API reference with the schemas it refers to, fetched by the
// page when a reader opens the operation (the page itself lists operations only, see ../../reference.ts).
import { loadOpenApiDocument } from "../../../../server/api/rest/openapi";
import { operationSlice } from "../../reference";

export const runtime = "nodejs";

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
  const slice = operationSlice(await loadOpenApiDocument(), id);
  if (!slice) {
    return Response.json(
      { error: { code: "NOT_FOUND", message: "No such operation in the API reference." } },
      { status: 404 },
    );
  }
  return Response.json(slice, { headers: { "Cache-Control": "public, max-age=300" } });
}
