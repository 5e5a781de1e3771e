// Reads a shipped snapshot and the date it records. The date comes from the `data/feeds/<name>.meta.json` sidecar
// (source, licence, fetchedAt, version); without one, from the file's modification time, which is honest about
// nothing but is never newer than the file.
import { existsSync, readFileSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { shippedFeedFile } from "./config";
import type { FeedDefinition } from "./types";

export interface ShippedMeta {
  source?: string;
  license?: string;
  attribution?: string;
  fetchedAt?: string;
  version?: string | null;
}

/** Decompresses gzip payloads (by magic bytes), so snapshots and downloads may be either. */
export function maybeGunzip(raw: Buffer): Buffer {
  return raw.length > 2 && raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
}

export function readShippedMeta(name: string): ShippedMeta | null {
  const file = shippedFeedFile(`${name}.meta.json`);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8")) as ShippedMeta;
}

export function readShipped(def: FeedDefinition<unknown>): { raw: Buffer; fetchedAt: Date; version: string | null } {
  const raw = maybeGunzip(readFileSync(def.snapshotPath));
  const meta = readShippedMeta(def.name);
  const metaDate = meta?.fetchedAt ? new Date(meta.fetchedAt) : null;
  const fetchedAt = metaDate && !Number.isNaN(metaDate.getTime()) ? metaDate : statSync(def.snapshotPath).mtime;
  return { raw, fetchedAt, version: meta?.version ?? null };
}
