"use client";
// The badge's embed snippet. The badge shows the latest public scan only, so the page says so for other scans.
import { CopyButton } from "../_components/CopyButton";
import { usePageOrigin } from "../_components/usePageOrigin";

export function BadgeSnippet({ host, visibility }: { host: string; visibility: string }) {
  const origin = usePageOrigin();
  const src = `${origin}/badges/${host}.svg`;
  const html = `<a href="${origin}/leaderboard"><img src="${src}" alt="Security grade of ${host}"></a>`;
  return (
    <section aria-labelledby="badge-snippet">
      <h2 id="badge-snippet">Badge</h2>
      <p className="muted small">
        {visibility === "public"
          ? "The badge shows the grade and date of this host's latest public scan."
          : "This scan is not public, so the badge does not show it: it shows the latest public scan, or “not scanned”."}
      </p>
      {/* A plain img: the badge is an SVG our own route renders, which next/image would only proxy. */}
      <img src={`/badges/${host}.svg`} alt={`Security badge of ${host}`} height={20} />
      <pre className="raw-json badge-code" data-testid="badge-snippet">
        {html}
      </pre>
      <CopyButton text={html} label="Copy the snippet" />
    </section>
  );
}
