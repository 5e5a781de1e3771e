// At 390 px every button and link inside a region ends within the viewport (tables become stacked cards), so no
// action hides behind sideways scrolling. Shared by quality.spec.ts's idea and the journeys whose tables need data.
import { expect, type Locator, type Page } from "@playwright/test";

export async function expectActionsInView(region: Locator, what: string): Promise<void> {
  const offscreen = await region.evaluate((root) =>
    [...root.querySelectorAll("button, a[href]")]
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .map((el) => ({ text: (el.textContent ?? "").trim().slice(0, 40), right: el.getBoundingClientRect().right }))
      .filter((b) => b.right > window.innerWidth + 1)
      .map((b) => `"${b.text}" ends at ${Math.round(b.right)} px`),
  );
  expect(offscreen, `${what}: buttons and links past the right edge at 390 px`).toEqual([]);
}

/**
 * The page scrolls no sideways. Polled: after a viewport change, charts re-measure their container in a resize
 * observer a frame or more later (longer on a busy machine), and until then still have the old width.
 */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: "the page scrolls sideways",
    })
    .toBeLessThanOrEqual(1);
}
