// The pages benchmark's figures and how they are printed beside the other in-process figures (bench/in-process.ts);
// the measuring is in bench/pages-runner.ts. Targets from issue 22: /docs under 300 KB of HTML, every page under
// 1 s warm and under 2 s on its first visit after the server starts.
export const PAGES_IN_PROCESS = "pages in Chromium: HTML weight and time to first content (first visit and warm)";

export const TARGETS = { docsHtmlBytes: 300_000, warmMs: 1_000, firstVisitMs: 2_000 };

export interface PageTiming {
  path: string;
  htmlBytes: number;
  /** First contentful paint of the page's first visit after the server started, from navigation start. */
  firstVisitMs: number;
  /** When that first answer had arrived in full. */
  firstVisitResponseMs: number;
  /** Median first contentful paint of the warm visits. */
  warmMs: number;
}

export interface PageFigures {
  store: string;
  warmVisits: number;
  pages: PageTiming[];
}

export const isPages = (f: object): f is PageFigures => "pages" in f;

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
const ms = (n: number) => `${Math.round(n)} ms`;

export function printPages(name: string, f: PageFigures, loadAverage: { before: number; after: number }): void {
  console.log(`${name} (${f.store} store; warm = median of ${f.warmVisits} visits)`);
  const head = ["page", "HTML", "first visit", "(answered)", "warm", "targets"];
  const rows = f.pages.map((p) => {
    const missed: string[] = [];
    if (p.path === "/docs" && p.htmlBytes >= TARGETS.docsHtmlBytes) missed.push("HTML");
    if (p.firstVisitMs >= TARGETS.firstVisitMs) missed.push("first");
    if (p.warmMs >= TARGETS.warmMs) missed.push("warm");
    return [
      p.path,
      kb(p.htmlBytes),
      ms(p.firstVisitMs),
      ms(p.firstVisitResponseMs),
      ms(p.warmMs),
      missed.length ? `MISSED ${missed.join(", ")}` : "met",
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    "  " + cells.map((c, i) => (i >= 1 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  console.log(line(head));
  console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
  console.log(`  load avg ${loadAverage.before.toFixed(1)} -> ${loadAverage.after.toFixed(1)}`);
}
