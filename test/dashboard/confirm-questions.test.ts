// Every question the dashboard asks before something that cannot be undone is the one ConfirmQuestion: it takes
// focus on its safe answer and closes on Escape, giving focus back to the button that asked. Six pages had drawn their
// own (a rule's, a webhook's, a sender's and a saved report's delete, a link's disable, the weights' switch, a bulk
// job's cancel): Escape did nothing there, and the webhook's, the sender's and the report's left focus nowhere.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function pages(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return pages(p);
    return p.endsWith(".tsx") ? [p] : [];
  });
}

const app = path.join(process.cwd(), "app");
const files = pages(app).map((f) => ({ file: path.relative(process.cwd(), f), text: readFileSync(f, "utf8") }));
const own = path.join("app", "dashboard", "_components", "ConfirmQuestion.tsx");

describe("questions before an action that cannot be undone", () => {
  it("no page draws its own alertdialog", () => {
    const drawn = files.filter((f) => f.file !== own && /role="alertdialog"/.test(f.text)).map((f) => f.file);
    expect(drawn).toEqual([]);
  });

  it("every page with a “Yes, …” answer asks it through ConfirmQuestion", () => {
    const asking = files.filter((f) => f.file !== own && /(["'>]\s*|: )Yes, [a-z]/.test(f.text));
    expect(asking.length).toBeGreaterThan(5);
    const without = asking.filter((f) => !/<ConfirmQuestion\b/.test(f.text)).map((f) => f.file);
    expect(without).toEqual([]);
  });

  it("every ConfirmQuestion's page marks the button that asked, so Cancel and Escape give focus back to it", () => {
    const unmarked = files
      .filter((f) => f.file !== own && /<ConfirmQuestion\b/.test(f.text) && !/data-confirm-trigger/.test(f.text))
      .map((f) => f.file);
    expect(unmarked).toEqual([]);
  });
});
