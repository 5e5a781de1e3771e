/** A timestamp as "YYYY-MM-DD HH:MM UTC", or a dash when absent. */
export function formatUtc(value: string | Date | null | undefined): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(value) : value;
  return `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;
}
