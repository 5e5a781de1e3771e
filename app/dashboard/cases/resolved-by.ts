"use client";
// Who resolved a case, in words. The API answers "user:<id>" or "api_key:<id>"; the signed-in member is "you",
// another member is named by their email as the members page lists it, an API key as the keys page names it, and
// anyone no longer listed is said as such rather than shown as an id.
import { useQuery } from "@tanstack/react-query";
import { formatUtc, timeAgo } from "../_components/format";
import { useTRPC } from "../_components/trpc";

export function resolvedByWords(
  resolvedBy: string | null,
  known: { myUserId: string | null; keyNames: Record<string, string>; memberEmails?: Record<string, string> },
): string | null {
  if (!resolvedBy) return null;
  const [kind, ...rest] = resolvedBy.split(":");
  const id = rest.join(":");
  if (kind === "user") {
    if (id && id === known.myUserId) return "you";
    const email = known.memberEmails?.[id];
    if (email) return email;
    // The members list has loaded and does not hold them: they left the workspace since.
    return known.memberEmails ? "a former member of this workspace" : "another member of this workspace";
  }
  if (kind === "api_key") return known.keyNames[id] ? `the API key “${known.keyNames[id]}”` : "an API key";
  return null;
}

/** "Resolved as fraud by you, 2026-11-28 20:15 UTC (3 min ago)". */
export function resolutionSentence(
  c: { resolution: string | null; resolved_by: string | null; resolved_at: string | null },
  by: string | null,
  now = Date.now(),
): string {
  return (
    `Resolved${c.resolution ? ` as ${c.resolution}` : ""}` +
    (by ? ` by ${by}` : "") +
    (c.resolved_at ? `, ${formatUtc(c.resolved_at)} (${timeAgo(c.resolved_at, now)})` : "")
  );
}

/** The words for resolved_by, once the signed-in member and the workspace's keys are known (read only when needed). */
export function useResolvedBy(enabled: boolean): (resolvedBy: string | null) => string | null {
  const trpc = useTRPC();
  const me = useQuery({ ...trpc.account.me.queryOptions(), enabled, staleTime: 60_000 });
  const keys = useQuery({ ...trpc.account.keys.queryOptions(), enabled, staleTime: 60_000 });
  const members = useQuery({ ...trpc.account.members.queryOptions(), enabled, staleTime: 60_000 });
  const known = {
    myUserId: me.data?.user.userId ?? null,
    keyNames: Object.fromEntries((keys.data ?? []).map((k) => [k.id, k.name])),
    memberEmails: members.data
      ? Object.fromEntries(members.data.flatMap((m) => (m.userId ? [[m.userId, m.email]] : [])))
      : undefined,
  };
  return (resolvedBy) => resolvedByWords(resolvedBy, known);
}
