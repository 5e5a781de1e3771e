// POST /go/links as a domain operation: vet the destination, then create or reuse the link. Knows nothing of HTTP.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { shortUrl } from "./config";
import { createOrReuseLink, type LinkRow, type LinkScope } from "./links";
import { parseDestination } from "./normalize";
import { checkDestinationSafety, type LinkSafety } from "./safety";
import type { LinkCreated } from "./schemas";
import { assertLinkTargetOrThrow } from "./target";

export async function createProtectedLink(
  db: Db,
  a: { scope: LinkScope; url: string; expiresAt: string | null; requestId: string; origin: string | null },
): Promise<LinkCreated> {
  const destination = parseDestination(a.url);
  if ("error" in destination) throw new AppError("INVALID_REQUEST", destination.error);
  const [, safety] = await Promise.all([
    assertLinkTargetOrThrow(destination),
    checkDestinationSafety(destination.host),
  ]);
  if (safety.status === "listed") {
    throw new AppError(
      "TARGET_FORBIDDEN",
      `Target refused: ${destination.host} is listed on ${safety.listed_on.join(", ")}.`,
    );
  }
  const { link, reused } = await createOrReuseLink(db, {
    scope: a.scope,
    destination,
    expiresAt: a.expiresAt ? new Date(a.expiresAt) : null,
    requestId: a.requestId,
    safety,
  });
  return presentLink(link, { reused, scope: a.scope, safety, origin: a.origin });
}

function presentLink(
  link: LinkRow,
  x: { reused: boolean; scope: LinkScope; safety: LinkSafety; origin: string | null },
): LinkCreated {
  return {
    id: link.id,
    slug: link.slug,
    short_url: shortUrl(link.slug, x.origin),
    url: link.destination,
    normalized_url: link.normalizedKey,
    expires_at: link.expiresAt?.toISOString() ?? null,
    created_at: link.createdAt.toISOString(),
    reused: x.reused,
    scope: x.scope.kind,
    safety: x.safety,
  };
}
