// The README's settings table, generated from the registry (scripts/settings-table.ts writes it between the
// markers; test/foundation/settings.test.ts fails when README.md holds another one).
import type { Setting } from "./kinds";
import { SETTINGS } from "./registry";

export const TABLE_BEGIN = "<!-- settings:begin -->";
export const TABLE_END = "<!-- settings:end -->";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** One table per group, in the registry's order: variable, default, what it accepts, what it means. */
export function settingsTable(): string {
  const groups = new Map<string, string[]>();
  for (const [name, entry] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const rows = groups.get(entry.group) ?? [];
    rows.push(`| \`${name}\` | ${cell(entry.shown)} | ${cell(entry.accepts)} | ${cell(entry.meaning)} |`);
    groups.set(entry.group, rows);
  }
  const parts = [
    `<!-- Generated from server/env/ by \`npm run settings:table\`: edit the registry, not this table. -->`,
  ];
  for (const [group, rows] of groups) {
    parts.push(
      `#### ${group}`,
      ["| variable | default | accepts | meaning |", "|---|---|---|---|", ...rows].join("\n"),
    );
  }
  return parts.join("\n\n");
}

/**
 * `readme` with the text between `begin` and `end` replaced by `body`; throws when a marker is missing. Every README
 * section generated from code (this settings table, server/api/cost-table.ts's costs) is written this way.
 */
export function withGeneratedSection(
  readme: string,
  section: { begin: string; end: string; what: string; body: string },
): string {
  const begin = readme.indexOf(section.begin);
  const end = readme.indexOf(section.end);
  if (begin < 0 || end < begin)
    throw new Error(`README.md needs ${section.begin} and ${section.end} around its ${section.what}.`);
  return `${readme.slice(0, begin + section.begin.length)}\n\n${section.body}\n\n${readme.slice(end)}`;
}

/** `readme` with the text between the markers replaced by the generated table; throws when a marker is missing. */
export function withSettingsTable(readme: string): string {
  return withGeneratedSection(readme, {
    begin: TABLE_BEGIN,
    end: TABLE_END,
    what: "settings table",
    body: settingsTable(),
  });
}
