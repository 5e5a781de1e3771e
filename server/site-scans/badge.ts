// The SVG badge of a host: the grade and date of its latest public scan, or a neutral "not scanned". Private and
// unlisted scans are never read here (latestPublicScan), so a badge cannot reveal them.
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { latestPublicScan } from "./public";

const COLORS: Record<string, string> = { A: "#15803d", B: "#4d7c0f", C: "#a16207", D: "#c2410c", F: "#b91c1c" };
const NEUTRAL = "#6b7280";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Verdana 11px is about 6.5 px per character: enough for a badge that never needs exact metrics. */
const widthOf = (s: string) => Math.round(s.length * 6.5 + 12);

export function renderBadge(label: string, message: string, color: string): string {
  const lw = widthOf(label);
  const mw = widthOf(message);
  const w = lw + mw;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${escape(`${label}: ${message}`)}"><title>${escape(`${label}: ${message}`)}</title><rect width="${lw}" height="20" fill="#374151"/><rect x="${lw}" width="${mw}" height="20" fill="${color}"/><g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle"><text x="${lw / 2}" y="14">${escape(label)}</text><text x="${lw + mw / 2}" y="14">${escape(message)}</text></g></svg>`;
}

export type Badge = { svg: string; etag: string; grade: string | null; scannedAt: string | null };

export async function badgeForHost(db: Db, host: string): Promise<Badge> {
  const scan = await latestPublicScan(db, host);
  const svg = scan?.grade
    ? renderBadge(
        "security",
        `${scan.grade} · ${scan.createdAt.toISOString().slice(0, 10)}`,
        COLORS[scan.grade[0]!] ?? NEUTRAL,
      )
    : renderBadge("security", "not scanned", NEUTRAL);
  const etag = `"${createHash("sha256").update(svg).digest("base64url").slice(0, 27)}"`;
  return { svg, etag, grade: scan?.grade ?? null, scannedAt: scan?.createdAt.toISOString() ?? null };
}

const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The path segment decoded, or null when its percent-encoding is broken (e.g. `%E0`): then no badge, a 404. */
function decodedOrNull(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** GET /badges/{host}.svg: no key, unmetered, CORS open, short cache with an ETag (304 when it matches). */
export async function answerBadgeRequest(db: Db, file: string, ifNoneMatch: string | null): Promise<Response> {
  const headers = new Headers({
    "Access-Control-Allow-Origin": "*",
    "Cache-Control": "public, max-age=300",
    "X-Content-Type-Options": "nosniff",
  });
  const m = /^(.+)\.svg$/i.exec(decodedOrNull(file) ?? "");
  const host = m?.[1]?.toLowerCase().replace(/\.$/, "");
  if (!host || !HOST.test(host)) {
    headers.set("Content-Type", "application/json");
    return new Response(
      JSON.stringify({ error: { code: "NOT_FOUND", message: "Badges are at /badges/{host}.svg." } }),
      { status: 404, headers },
    );
  }
  const badge = await badgeForHost(db, host);
  headers.set("ETag", badge.etag);
  headers.set("Content-Type", "image/svg+xml; charset=utf-8");
  headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
  if (
    ifNoneMatch &&
    ifNoneMatch
      .split(",")
      .map((s) => s.trim())
      .includes(badge.etag)
  )
    return new Response(null, { status: 304, headers });
  return new Response(badge.svg, { status: 200, headers });
}
