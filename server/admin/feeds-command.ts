// `feeds status` and `feeds refresh`: thin wrappers over the feed module.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { findFeed } from "../feeds/registry";
import { refreshFeeds } from "../feeds/refresh";
import { feedStatus } from "../feeds/status";

export async function feedsCommand(db: Db, verb: string, feed: string | null): Promise<{ result: unknown; text: string }> {
  if (verb === "status") {
    const rows = await feedStatus(db);
    return { result: rows, text: rows.map((r) => Object.values(r).join("\t")).join("\n") };
  }
  if (feed && !findFeed(feed)) throw new AppError("INVALID_REQUEST", `unknown feed: ${feed}`);
  const rows = await refreshFeeds(db, feed ? { feed } : {});
  return { result: rows, text: rows.map((r) => Object.values(r).join("\t")).join("\n") };
}
