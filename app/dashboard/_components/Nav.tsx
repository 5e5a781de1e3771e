"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

export const DASHBOARD_LINKS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/console", label: "Lookup console" },
  { href: "/dashboard/assess", label: "Assess an event" },
  { href: "/dashboard/rules", label: "Rules" },
  { href: "/dashboard/cases", label: "Review queue" },
  { href: "/dashboard/users", label: "Accounts" },
  { href: "/dashboard/lists", label: "Lists" },
  { href: "/dashboard/weights", label: "Signal weights" },
  { href: "/dashboard/bulk", label: "Bulk jobs" },
  { href: "/dashboard/scans", label: "Website scans" },
  { href: "/dashboard/monitors", label: "Monitors" },
  { href: "/dashboard/device", label: "Device signals" },
  { href: "/dashboard/vulnerabilities", label: "Vulnerabilities" },
  { href: "/dashboard/projects", label: "Projects" },
  { href: "/dashboard/reports", label: "Saved reports" },
  { href: "/dashboard/events", label: "Events" },
  { href: "/dashboard/analytics", label: "Analytics" },
  { href: "/dashboard/history", label: "Lookup history" },
  { href: "/dashboard/links", label: "Protected links" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/plan", label: "Plan" },
  { href: "/dashboard/members", label: "Members" },
  { href: "/dashboard/senders", label: "Senders" },
  { href: "/dashboard/sources", label: "Data sources" },
] as const;

export function Nav() {
  const pathname = usePathname();
  return (
    <nav className="side-nav" aria-label="Dashboard">
      {DASHBOARD_LINKS.map((l) => {
        const active = l.href === "/dashboard" ? pathname === l.href : pathname.startsWith(l.href);
        return (
          <Link
            key={l.href}
            href={l.href}
            className={active ? "active" : undefined}
            aria-current={active ? "page" : undefined}
          >
            {l.label}
          </Link>
        );
      })}
      <Link href="/docs">API reference</Link>
    </nav>
  );
}
