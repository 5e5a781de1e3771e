// The Monitors page says what a run costs for every monitor it lists: a project monitor (watched from Projects) is one
// of them, and its run costs one unit per package version of the project. The page said only "Each check costs one
// unit per run." above a project monitor whose hourly runs cost 3 units each.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MonitorsIntro } from "../../app/dashboard/monitors/MonitorsView";

describe("the Monitors page's introduction", () => {
  it("says a check costs one unit a run and a project one unit per package version a run", () => {
    const text = renderToStaticMarkup(createElement(MonitorsIntro))
      .replace(/<[^>]+>/g, "")
      .replace(/\s+/g, " ");
    expect(text).toContain("Each check costs one unit per run;");
    expect(text).toContain(
      "a project watched from Projects costs one unit per package version of the project per run.",
    );
  });
});
