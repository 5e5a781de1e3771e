// axe-core for the specs that check accessibility: @axe-core/playwright's AxeBuilder, run in legacy mode when the
// page has no frames. Its default mode runs axe.runPartial in every frame, then opens a blank page in the same
// context, injects axe-core there a second time and merges the frames' results with axe.finishRun; with a single
// frame there is nothing to merge, and axe.run in the page (legacy mode) reports the same violations, seconds
// sooner per analysis on a busy 2-core machine. A page with frames keeps the default mode, because legacy mode
// does not test cross-origin frames.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** A new AxeBuilder for the page as it is now (call it right before analyze()). */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1);
}
