// Endpoint burst limits: a fixed-window counter per bucket in the database, advanced by one conditional upsert,
// so every app instance shares the same buckets and a refused call changes nothing.
import { getDb } from "../db/client";

export interface RateVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

export async function consumeRateLimit(a: {
  bucket: string;
  limit: number;
  windowSeconds: number;
  now?: Date;
}): Promise<RateVerdict> {
  const db = await getDb();
  const nowMs = (a.now ?? new Date()).getTime();
  const windowMs = a.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(nowMs / windowMs) * windowMs);
  const rows = await db.$queryRawUnsafe<{ count: number }[]>(
    `INSERT INTO "RateLimitBucket" ("bucket", "windowStart", "count") SELECT $1::text, $2::timestamp(3), 1 WHERE 1 <= $3::int
     ON CONFLICT ("bucket", "windowStart") DO UPDATE SET "count" = "RateLimitBucket"."count" + 1
       WHERE "RateLimitBucket"."count" + 1 <= $3::int
     RETURNING "count"`,
    a.bucket,
    windowStart,
    a.limit,
  );
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - nowMs) / 1000));
  return { allowed: rows.length > 0, retryAfterSeconds };
}
