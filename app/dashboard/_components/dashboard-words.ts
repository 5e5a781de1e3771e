// The server's messages serve both doors: an API client is told which route to call ("Create it first (POST
// /v1/lists)"), but a dashboard user has no route to call. Before a message is shown in the dashboard, every API
// route it names becomes the dashboard page that does the same thing ("Create it first on the Lists page"), so no
// dashboard message names an API route. (Plain data, not read from Nav.tsx: that is a client module, and this one is
// also imported where server components render.)

/** The dashboard page (its name in the side navigation) that does what the routes under each /v1 path do. */
const PAGE_OF_ROUTE: Record<string, string> = {
  lists: "Lists",
  rules: "Rules",
  cases: "Review queue",
  webhooks: "Webhooks",
  monitors: "Monitors",
  events: "Events",
  scans: "Website scans",
  weights: "Signal weights",
  jobs: "Bulk jobs",
  assess: "Assess an event",
  vulnerabilities: "Vulnerabilities",
};

// A method, then the path (a sentence's full stop after it is not part of it).
const ROUTE = String.raw`(?:GET|POST|PUT|PATCH|DELETE) \/(?:v1\/)?([a-z-]+)(?:[^\s),;]*[^\s),;.])?`;
const IN_PARENS = new RegExp(String.raw`\s*\(${ROUTE}\)`, "g");
const BARE = new RegExp(ROUTE, "g");

function pageName(segment: string): string | null {
  return Object.hasOwn(PAGE_OF_ROUTE, segment) ? `the ${PAGE_OF_ROUTE[segment]} page` : null;
}

/** A server message as a dashboard user should read it: API routes replaced by the page that does the same. */
export function dashboardMessage(message: string): string {
  return message
    .replace(IN_PARENS, (_m, segment: string) => {
      const page = pageName(segment);
      return page ? ` on ${page}` : "";
    })
    .replace(BARE, (_m, segment: string) => pageName(segment) ?? "the dashboard");
}
