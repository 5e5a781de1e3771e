// axe-core for the specs that check accessibility: @axe-core/playwright's AxeBuilder, run in legacy mode when the
// page has no frames. Its default mode runs axe.runPartial in every frame, then opens a blank page in the same
// context, injects axe-core there a second time and merges the frames' results with axe.finishRun; with a single
// frame there is nothing to merge, and axe.run in the page (legacy mode) reports the same violations, seconds
// sooner per analysis on a busy 2-core machine. A page with frames keeps the default mode, because legacy mode
// does not test cross-origin frames.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** A new AxeBuilder for the page as it is now (call it right before analyze()). */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1);
}

/**
 * The page's serious and critical axe violations, each as "impact id: help — the first five targets". It waits for the
 * document's title first: after a client-side navigation Next puts the new page's <title> in place after its content,
 * and an analysis in between reported a missing title (document-title) for a page that has one. `include` limits
 * the analysis to one part of the page.
 */
export async function seriousViolations(page: Page, o: { include?: string } = {}): Promise<string[]> {
  await expect(page).toHaveTitle(/\S/);
  const builder = axeBuilder(page);
  if (o.include) builder.include(o.include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 5)
          .join(" | ")}`,
    );
}
