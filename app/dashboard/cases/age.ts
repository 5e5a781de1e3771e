// How long a case has waited, in words (the queue and the overview).
/** "12 minutes", "3 hours", "2 days". */
export function age(minutes: number): string {
  if (minutes < 1) return "less than a minute";
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}
