// The last good answer of an upstream, kept so that a later request can still be answered (marked as retained)
// while the upstream is down. One row per key; a newer success replaces it.
import { getDb, type Db } from "../db/client";

export type Retained<T> = { body: T; fetchedAt: Date };

export async function retainResponse(key: string, body: unknown, fetchedAt: Date, db?: Db): Promise<void> {
  const client = db ?? (await getDb());
  const json = body as object;
  await client.retainedResponse.upsert({
    where: { key },
    create: { key, body: json, fetchedAt },
    update: { body: json, fetchedAt },
  });
}

export async function findRetainedResponse<T>(key: string, db?: Db): Promise<Retained<T> | null> {
  const client = db ?? (await getDb());
  const row = await client.retainedResponse.findUnique({ where: { key } });
  return row ? { body: row.body as T, fetchedAt: row.fetchedAt } : null;
}
