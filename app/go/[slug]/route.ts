// Protected-link redirects, outside /v1: 302 to the stored destination, 404 for an unknown slug, 410 when the
// link has expired or was disabled.
import { answerLinkRequest } from "../../../server/links/redirect";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(req: Request, ctx: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await ctx.params;
  return answerLinkRequest(req, slug);
}
