// Protected links: creation with reuse, and the lookup behind the redirect. A scope is a workspace id, or "anon"
// for links created without a key; reuse never crosses scopes.
import type { Db } from "../db/client";
import { sortableId } from "../ids";
import { recordEvent } from "../events/events";
import type { Destination } from "./normalize";
import type { LinkSafety } from "./safety";
import { newSlug } from "./slug";

export const ANONYMOUS_SCOPE = "anon";

export type LinkScope = { kind: "workspace"; workspaceId: string } | { kind: "anonymous" };

export interface LinkRow {
  id: string;
  slug: string;
  destination: string;
  normalizedKey: string;
  expiresAt: Date | null;
  createdAt: Date;
  scope: string;
}

const asJson = (safety: LinkSafety) => safety as unknown as object;

export const scopeKey = (s: LinkScope) => (s.kind === "workspace" ? s.workspaceId : ANONYMOUS_SCOPE);

/**
 * Spec: an identical normalized destination in the same scope reuses an active, non-expiring link. A request that
 * sets an expiry always gets a link of its own (reusing would change, or ignore, someone's expiry). Creation runs
 * under a transaction-scoped advisory lock on (scope, destination), so two identical requests at once get one link.
 * The destination's safety verdict is kept with the link (a reused link takes the newest one), so the workspace's
 * list of links shows what the blocklists said and when.
 */
export async function createOrReuseLink(
  db: Db,
  a: { scope: LinkScope; destination: Destination; expiresAt: Date | null; requestId: string; safety: LinkSafety },
): Promise<{ link: LinkRow; reused: boolean }> {
  const scope = scopeKey(a.scope);
  const workspaceId = a.scope.kind === "workspace" ? a.scope.workspaceId : null;
  const result = await db.$transaction(async (tx) => {
    if (!a.expiresAt) {
      await tx.$executeRawUnsafe(
        `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
        `link:${scope}:${a.destination.normalized}`,
      );
      const existing = await tx.link.findFirst({
        where: { scope, normalizedKey: a.destination.normalized, expiresAt: null, disabledAt: null },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      if (existing) {
        await tx.link.update({ where: { id: existing.id }, data: { safety: asJson(a.safety) } });
        return { link: existing, reused: true };
      }
    }
    const link = await tx.link.create({
      data: {
        id: sortableId("lnk"),
        slug: await unusedSlug(tx),
        scope,
        workspaceId,
        destination: a.destination.url,
        normalizedKey: a.destination.normalized,
        expiresAt: a.expiresAt,
        safety: asJson(a.safety),
      },
    });
    if (workspaceId) {
      // The investigation event is part of the creation: both are written, or neither.
      await recordEvent(tx, {
        workspaceId,
        requestId: a.requestId,
        type: "link.created",
        domain: a.destination.ipLiteral ? null : a.destination.host,
        data: {
          link_id: link.id,
          slug: link.slug,
          url: link.destination,
          expires_at: link.expiresAt?.toISOString() ?? null,
        },
      });
    }
    return { link, reused: false };
  });
  return result;
}

/** 62^7 slugs make a collision rare; a few draws make one practically impossible. */
async function unusedSlug(db: Pick<Db, "link">): Promise<string> {
  for (let i = 0; i < 5; i++) {
    const slug = newSlug();
    if (!(await db.link.findUnique({ where: { slug }, select: { id: true } }))) return slug;
  }
  return newSlug(12);
}

/** The link behind a visit, for the investigation event of a refused one. */
export interface VisitedLink {
  id: string;
  slug: string;
  workspaceId: string | null;
  destination: string;
}

export type RedirectOutcome =
  | { kind: "redirect"; url: string; link: VisitedLink }
  | { kind: "not_found" }
  | { kind: "gone"; reason: "expired" | "disabled"; link: VisitedLink };

/** Where a slug leads now. A redirect is counted with one UPDATE that also re-checks the link is still active. */
export async function followLink(db: Db, slug: string, now = new Date()): Promise<RedirectOutcome> {
  const rows = await db.$queryRawUnsafe<VisitedLink[]>(
    `UPDATE "Link" SET "clicks" = "clicks" + 1
      WHERE "slug" = $1 AND "disabledAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > $2::timestamp(3))
      RETURNING "id", "slug", "workspaceId", "destination"`,
    slug,
    now.toISOString(),
  );
  if (rows[0]) return { kind: "redirect", url: rows[0].destination, link: rows[0] };
  const link = await db.link.findUnique({
    where: { slug },
    select: { id: true, slug: true, workspaceId: true, destination: true, disabledAt: true },
  });
  if (!link) return { kind: "not_found" };
  const { disabledAt, ...visited } = link;
  return { kind: "gone", reason: disabledAt ? "disabled" : "expired", link: visited };
}
