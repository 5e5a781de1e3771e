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

/** "Watch this package" on a package report: a monitor of the packages check for this version, named after it. */
export function WatchPackageLink({ ecosystem, name, version }: { ecosystem: string; name: string; version: string }) {
  const href = `/dashboard/monitors/new?${new URLSearchParams({
    target: name,
    checks: "packages",
    packages: `${ecosystem} ${name} ${version}`,
  })}`;
  return (
    <p className="small">
      <Link href={href} data-testid="watch-package">
        Watch this package
      </Link>{" "}
      <span className="muted">— be told when a new advisory or a malware report reaches version {version}.</span>
    </p>
  );
}

/** The checks a monitor of a lookup answer starts with, by the answer's kind. */
export const WATCH_CHECKS: Partial<Record<string, CheckType[]>> = {
  tls: ["tls", "reachability"],
  domain: ["dns", "email_security", "tls"],
  "email-security": ["email_security", "dns"],
};
