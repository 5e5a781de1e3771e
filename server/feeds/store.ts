// Refreshed snapshots live in the FeedSnapshot table, one row per feed, so every app instance sees the same data.
// The row is replaced in one statement: readers see the old snapshot or the new one, never half of each.
import { gunzipSync, gzipSync } from "node:zlib";
import type { PrismaClient } from "../db/generated/client";

export type FeedDb = PrismaClient;

export interface StoredSnapshotMeta {
  fetchedAt: Date;
  count: number;
  version: string | null;
  sourceUrl: string;
}

export async function readSnapshotMeta(db: FeedDb, name: string): Promise<StoredSnapshotMeta | null> {
  return db.feedSnapshot.findUnique({
    where: { name },
    select: { fetchedAt: true, count: true, version: true, sourceUrl: true },
  });
}

export async function readSnapshot(db: FeedDb, name: string): Promise<(StoredSnapshotMeta & { raw: Buffer }) | null> {
  const row = await db.feedSnapshot.findUnique({ where: { name } });
  if (!row) return null;
  // Stored gzip-compressed: the ASN tables are tens of megabytes as text.
  return {
    fetchedAt: row.fetchedAt,
    count: row.count,
    version: row.version,
    sourceUrl: row.sourceUrl,
    raw: gunzipSync(Buffer.from(row.content)),
  };
}

export async function writeSnapshot(db: FeedDb, name: string, raw: Buffer, meta: StoredSnapshotMeta): Promise<void> {
  const content = new Uint8Array(gzipSync(raw, { level: 6 }));
  const fields = {
    content,
    count: meta.count,
    version: meta.version,
    fetchedAt: meta.fetchedAt,
    sourceUrl: meta.sourceUrl,
  };
  await db.feedSnapshot.upsert({ where: { name }, create: { name, ...fields }, update: fields });
}
