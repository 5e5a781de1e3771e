// The scoring table as Markdown, for the OpenAPI description and docs/scans-scoring.md (both generated from
// SCAN_TESTS, the list the scorer reads). `npx tsx scripts/scans-scoring-doc.ts` rewrites the docs file.
import { BONUS_THRESHOLD, GRADE_BANDS, SCAN_TESTS, START_SCORE } from "./scoring-table";

const cell = (s: string) => s.replace(/\|/g, "\\|");

export function scoringRulesMarkdown(): string {
  const bands = GRADE_BANDS.map((b, i) => {
    const next = GRADE_BANDS[i - 1];
    return `${b.grade} ${next ? `${b.min}-${next.min - 1}` : `${b.min}+`}`;
  }).join(", ");
  return [
    `**Scoring.** Every scan starts at ${START_SCORE}. Each test's result adds the points below: penalties (negative) always count; bonuses (positive) count only when the score after all penalties is at least ${BONUS_THRESHOLD}. The score never goes below 0; the highest possible is ${START_SCORE + SCAN_TESTS.reduce((n, t) => n + Math.max(0, ...t.outcomes.map((o) => o.points)), 0)}.`,
    `**Grades:** ${bands}.`,
  ].join("\n\n");
}

export function scoringTableMarkdown(): string {
  const rows = SCAN_TESTS.flatMap((t) =>
    t.outcomes.map(
      (o) =>
        `| ${t.id} | \`${o.result}\` | ${o.points > 0 ? `+${o.points}` : o.points} | ${cell(o.reason)} | ${cell(o.fix ?? "")} |`,
    ),
  );
  return ["| test | result | points | meaning | fix |", "|---|---|---|---|---|", ...rows].join("\n");
}

export const SCORING_DESCRIPTION = `${scoringRulesMarkdown()}\n\n${scoringTableMarkdown()}`;

export function scoringDocMarkdown(): string {
  return [
    "# Website scan scoring",
    "",
    "Generated from `server/site-scans/scoring-table.ts`, the table the scorer uses (`npx tsx scripts/scans-scoring-doc.ts` rewrites this file; a test fails when it is stale).",
    "",
    "A scan (`POST /v1/scans`, dashboard: Scans) fetches `http://host/` and `https://host/` through the SSRF guard, reads the final HTTPS response's headers, cookies and first HTML page, the host's TLS certificate, and the registrable domain's CAA, DNSSEC, SPF and DMARC records. Each test picks one result below; the answer lists every test with its result, points, reason and fix.",
    "",
    scoringRulesMarkdown(),
    "",
    scoringTableMarkdown(),
    "",
  ].join("\n");
}
