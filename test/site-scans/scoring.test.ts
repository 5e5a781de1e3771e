// The scoring table: grade bands, the bonus rule, and the docs page generated from the same table.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { scoreVerdicts } from "../../server/site-scans/score";
import { scoringDocMarkdown } from "../../server/site-scans/scoring-docs";
import { gradeOf, SCAN_TESTS } from "../../server/site-scans/scoring-table";

describe("grade bands", () => {
  it.each([
    [150, "A+"],
    [100, "A+"],
    [99, "A"],
    [90, "A"],
    [89, "A-"],
    [85, "A-"],
    [84, "B+"],
    [80, "B+"],
    [79, "B"],
    [70, "B"],
    [69, "B-"],
    [65, "B-"],
    [64, "C+"],
    [60, "C+"],
    [59, "C"],
    [50, "C"],
    [49, "C-"],
    [45, "C-"],
    [44, "D+"],
    [40, "D+"],
    [39, "D"],
    [30, "D"],
    [29, "D-"],
    [25, "D-"],
    [24, "F"],
    [0, "F"],
  ])("score %i is %s", (score, grade) => expect(gradeOf(score)).toBe(grade));
});

describe("scoring", () => {
  it("applies bonuses only at 90 or more and never goes below 0", () => {
    const at90 = scoreVerdicts([
      {
        id: "strict-transport-security",
        verdict: { result: "hsts-implemented-max-age-less-than-six-months", detail: null },
      },
      { id: "referrer-policy", verdict: { result: "referrer-policy-private", detail: null } },
    ]);
    expect(at90).toMatchObject({ score: 95, grade: "A", penalties: -10, bonuses: 5, bonusesApplied: true });
    const below = scoreVerdicts([
      { id: "content-security-policy", verdict: { result: "csp-not-implemented", detail: null } },
      { id: "referrer-policy", verdict: { result: "referrer-policy-private", detail: null } },
    ]);
    expect(below).toMatchObject({ score: 75, bonusesApplied: false });
    expect(below.tests[1]).toMatchObject({ counted: false, points: 5 });
    const worst = scoreVerdicts(
      SCAN_TESTS.map((t) => ({
        id: t.id,
        verdict: { result: [...t.outcomes].sort((a, b) => a.points - b.points)[0]!.result, detail: null },
      })),
    );
    expect(worst).toMatchObject({ score: 0, grade: "F" });
  });

  it("every penalty has a fix and every test has a reason", () => {
    for (const t of SCAN_TESTS)
      for (const o of t.outcomes) {
        expect(o.reason).not.toBe("");
        if (o.points < 0) expect(o.fix, `${t.id}/${o.result}`).toEqual(expect.any(String));
      }
  });
});

describe("one source for the scorer, the OpenAPI description and the docs page", () => {
  it("docs/scans-scoring.md is what the table generates", () => {
    expect(readFileSync(new URL("../../docs/scans-scoring.md", import.meta.url), "utf8")).toBe(scoringDocMarkdown());
  });

  it("the OpenAPI description of POST /scans lists every result with its points", () => {
    const doc = getOpenApiDocument() as any;
    const description: string = doc.paths["/scans"].post.description;
    for (const t of SCAN_TESTS)
      for (const o of t.outcomes)
        expect(description).toContain(`| ${t.id} | \`${o.result}\` | ${o.points > 0 ? "+" : ""}${o.points} |`);
  });
});
