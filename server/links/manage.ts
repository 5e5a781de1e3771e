// A workspace's own links: the list behind GET /go/links and disabling one. Anonymous links belong to no workspace
// and never appear here; another workspace's link is answered as not found.
import type { Actor } from "../audit/audit";
import { actorString } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newestFirstAfter, placeOf } from "../pages";
import { sortableId } from "../ids";
import { shortUrl } from "./config";
import type { LinkSafety } from "./safety";
import type { LinkRecord } from "./schemas";

interface StoredLink {
  id: string;
  slug: string;
  destination: string;
  clicks: number;
  safety: unknown;
  createdAt: Date;
  expiresAt: Date | null;
  disabledAt: Date | null;
}

function presentRecord(l: StoredLink, origin: string | null, now: Date): LinkRecord {
  const status = l.disabledAt ? "disabled" : l.expiresAt && l.expiresAt <= now ? "expired" : "active";
  return {
    id: l.id,
    slug: l.slug,
    short_url: shortUrl(l.slug, origin),
    url: l.destination,
    status,
    clicks: l.clicks,
    safety: (l.safety as LinkSafety | null) ?? null,
    created_at: l.createdAt.toISOString(),
    expires_at: l.expiresAt?.toISOString() ?? null,
    disabled_at: l.disabledAt?.toISOString() ?? null,
  };
}

/** Newest first; `cursor` is the last id of the previous page. */
export async function listWorkspaceLinks(
  db: Db,
  a: { workspaceId: string; limit: number; cursor?: string | null; origin: string | null; now?: Date },
): Promise<{ items: LinkRecord[]; nextCursor: string | null }> {
  const now = a.now ?? new Date();
  const after = await placeOf(a.cursor, (id) =>
    db.link.findFirst({ where: { id, workspaceId: a.workspaceId }, select: { id: true, createdAt: true } }),
  );
  const rows = await db.link.findMany({
    where: { workspaceId: a.workspaceId, ...(after ? newestFirstAfter(after) : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: a.limit + 1,
  });
  const page = rows.slice(0, a.limit);
  return {
    items: page.map((l) => presentRecord(l, a.origin, now)),
    nextCursor: rows.length > a.limit ? page[page.length - 1].id : null,
  };
}

/**
 * Disables a link for good: from now on its short URL answers 410 and it is never reused. The change and its
 * investigation event (`link.disabled`, with who did it) are written together; disabling a disabled link changes
 * nothing and returns it as it is.
 */
type LinkChange = { workspaceId: string; linkId: string; actor: Actor; requestId: string; origin: string | null };

/** Disables a link: its short URL answers 410 until it is enabled again. */
export function disableLinkOrThrow(db: Db, a: LinkChange): Promise<LinkRecord> {
  return setLinkDisabledOrThrow(db, a, true);
}

/** Turns a disabled link back on (an expired one stays expired). */
export function enableLinkOrThrow(db: Db, a: LinkChange): Promise<LinkRecord> {
  return setLinkDisabledOrThrow(db, a, false);
}

/**
 * One change of a link's disabled state, with its `link.disabled` or `link.enabled` event in the same transaction;
 * a link already in that state changes nothing and records nothing.
 */
async function setLinkDisabledOrThrow(db: Db, a: LinkChange, disabled: boolean): Promise<LinkRecord> {
  return db.$transaction(async (tx) => {
    const now = new Date();
    const changed = await tx.link.updateMany({
      where: { id: a.linkId, workspaceId: a.workspaceId, disabledAt: disabled ? null : { not: null } },
      data: { disabledAt: disabled ? now : null },
    });
    const link = await tx.link.findFirst({ where: { id: a.linkId, workspaceId: a.workspaceId } });
    if (!link) throw new AppError("NOT_FOUND", "No such link in this workspace.");
    if (changed.count === 1) {
      const ip = "ip" in a.actor ? (a.actor.ip ?? null) : null;
      let domain: string | null = null;
      try {
        domain = new URL(link.destination).hostname || null;
      } catch {
        // an unparsable stored destination has no domain to index
      }
      await tx.event.create({
        data: {
          id: sortableId("evt"),
          workspaceId: a.workspaceId,
          requestId: a.requestId,
          type: disabled ? "link.disabled" : "link.enabled",
          actor: actorString(a.actor),
          ip,
          email: a.actor.kind === "user" ? (a.actor.email?.toLowerCase() ?? null) : null,
          domain,
          data: {
            link_id: link.id,
            slug: link.slug,
            url: link.destination,
            clicks: link.clicks,
            user_agent: "userAgent" in a.actor ? (a.actor.userAgent ?? null) : null,
          },
        },
      });
    }
    return presentRecord(link, a.origin, now);
  });
}
