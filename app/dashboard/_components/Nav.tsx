"use client";
// The dashboard's navigation: a side column on wide screens; below 800 px a "Menu" button that shows and hides the
// links (aria-expanded), so a phone's first screen is the page, not the list. Escape closes the open menu and gives
// focus back to the button; following a link closes it.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";

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
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // A new page closes the menu (a link followed, or back and forward).
  useEffect(() => setOpen(false), [pathname]);
  const current = DASHBOARD_LINKS.find((l) =>
    l.href === "/dashboard" ? pathname === l.href : pathname.startsWith(l.href),
  );
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== "Escape" || !open) return;
    e.preventDefault();
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <nav className={`side-nav${open ? " open" : ""}`} aria-label="Dashboard" onKeyDown={onKeyDown}>
      <div className="nav-bar">
        <button
          type="button"
          ref={toggle}
          className="btn nav-toggle"
          aria-expanded={open}
          aria-controls="dashboard-nav-links"
          onClick={() => setOpen(!open)}
          data-testid="nav-toggle"
        >
          <span aria-hidden="true" className="nav-toggle-icon">
            {open ? "✕" : "☰"}
          </span>
          Menu
        </button>
        {/* The page shown, beside the button (whose name stays "Menu"). */}
        {current ? <span className="nav-current">{current.label}</span> : null}
      </div>
      <div className="nav-links" id="dashboard-nav-links">
        {DASHBOARD_LINKS.map((l) => {
          const active = l === current;
          return (
            <Link
              key={l.href}
              href={l.href}
              className={active ? "active" : undefined}
              aria-current={active ? "page" : undefined}
              onClick={() => setOpen(false)}
            >
              {l.label}
            </Link>
          );
        })}
        <Link href="/docs">API reference</Link>
      </div>
    </nav>
  );
}
