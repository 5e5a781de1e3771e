// Investigation events: an account-scoped record of assessments, rules, webhooks, link activity and other
// security actions, searchable by request id, email, domain, IP or rule. Every read filters on the workspace.
import type { Db } from "../db/client";
import { newId } from "../ids";

export interface EventInput {
  workspaceId: string;
  requestId: string;
  type: string;
  ip?: string | null;
  email?: string | null;
  domain?: string | null;
  rule?: string | null;
  data: Record<string, unknown>;
}

export async function recordEvent(db: Db, e: EventInput): Promise<string> {
  const id = newId("evt");
  await db.event.create({
    data: {
      id,
      workspaceId: e.workspaceId,
      requestId: e.requestId,
      type: e.type,
      ip: e.ip ?? null,
      email: e.email?.toLowerCase() ?? null,
      domain: e.domain?.toLowerCase() ?? null,
      rule: e.rule ?? null,
      data: e.data as object,
    },
  });
  return id;
}

/** Events of one workspace, newest first, optionally matching `query` on any indexed field. */
export async function searchEvents(db: Db, a: { workspaceId: string; query?: string | null; limit: number; cursor?: string | null }) {
  const q = a.query?.trim();
  const rows = await db.event.findMany({
    where: {
      workspaceId: a.workspaceId,
      ...(q
        ? {
            OR: [
              { requestId: q },
              { ip: q },
              { email: q.toLowerCase() },
              { domain: q.toLowerCase() },
              { rule: q },
              { type: q },
            ],
          }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: a.limit + 1,
    ...(a.cursor ? { cursor: { id: a.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, a.limit);
  return { items: page, nextCursor: rows.length > a.limit ? page[page.length - 1].id : null };
}
