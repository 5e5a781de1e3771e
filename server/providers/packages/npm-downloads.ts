// npm's download-count service: downloads of one package over the last week.
import { npmDownloadsUrl } from "./config";
import { fetchUpstream, type Fetched } from "./http";
import { npmNamePath } from "./npm-registry";

export type WeeklyDownloads = { weeklyDownloads: number; start: string; end: string };

export function npmDownloadsPointUrl(name: string): string {
  // The point API takes scoped names with a literal slash.
  return `${npmDownloadsUrl()}/downloads/point/last-week/${npmNamePath(name).replace("%2F", "/")}`;
}

export async function getWeeklyDownloads(name: string): Promise<Fetched<WeeklyDownloads>> {
  return fetchUpstream({ source: "downloads", url: npmDownloadsPointUrl(name) }, (body) => {
    const doc = JSON.parse(body) as { downloads?: unknown; start?: unknown; end?: unknown };
    if (typeof doc.downloads !== "number" || typeof doc.start !== "string" || typeof doc.end !== "string") {
      throw new Error("unexpected downloads document");
    }
    return { weeklyDownloads: doc.downloads, start: doc.start, end: doc.end };
  });
}
