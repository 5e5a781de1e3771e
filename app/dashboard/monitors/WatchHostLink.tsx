// "Watch this host" on a result page: opens the new monitor form with the target and the checks that fit the
// answer already chosen.
import Link from "next/link";
import type { CheckType } from "../../../server/monitors/checks/types";

export function WatchHostLink({ target, checks }: { target: string; checks: CheckType[] }) {
  const href = `/dashboard/monitors/new?${new URLSearchParams({ target, checks: checks.join(",") })}`;
  return (
    <p className="small">
      <Link href={href} data-testid="watch-host">
        Watch this host
      </Link>{" "}
      <span className="muted">— run these checks on a schedule and be told when something changes.</span>
    </p>
  );
}

/** The checks a monitor of a lookup answer starts with, by the answer's kind. */
export const WATCH_CHECKS: Partial<Record<string, CheckType[]>> = {
  tls: ["tls", "reachability"],
  domain: ["dns", "email_security", "tls"],
  "email-security": ["email_security", "dns"],
};
