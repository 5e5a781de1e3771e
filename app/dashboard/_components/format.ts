/** A timestamp as "YYYY-MM-DD HH:MM UTC", or a dash when absent. */
export function formatUtc(value: string | Date | null | undefined): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(value) : value;
  return `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;
}

/** A timestamp to the second, "YYYY-MM-DD HH:MM:SS UTC": for lists whose entries can be seconds apart. */
export function formatUtcSeconds(value: string | Date | null | undefined): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(value) : value;
  return `${d.toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

/** How long ago, to the second when recent: "12 s ago", "4 min ago", "3 h ago", "2 d ago". */
export function timeAgo(value: string | Date, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(value).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}
