// Typosquat detection against the shipped npm list (issue 25, item 5): each technique on real popular names, the
// names that must never match, the dated list information, the download rule, and that lookups go through the index.
import { describe, expect, it } from "vitest";
import { popularNames, popularNamesInfo } from "../../server/vulnerabilities/popular-names";
import {
  meetsDownloadRule,
  typosquatCandidate,
  typosquatIndexStats,
  withDownloadEvidence,
} from "../../server/vulnerabilities/typosquat";

const rankOf = (name: string) => popularNames("npm").indexOf(name) + 1;

// A seeded generator, so the random batch is the same on every run.
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("typosquatCandidate on npm", () => {
  it.each([
    ["debig", "debug", "edit", "changes one letter of 'debug'"],
    ["axio", "axios", "edit", "drops one letter of 'axios'"],
    ["chalks", "chalk", "edit", "adds one letter to 'chalk'"],
    ["lodahs", "lodash", "swap", "swaps two letters of 'lodash'"],
    ["raect", "react", "swap", "swaps two letters of 'react'"],
    ["lodassh", "lodash", "double", "doubles a letter of 'lodash'"],
    ["expres", "express", "double", "drops a doubled letter of 'express'"],
    ["lo-dash", "lodash", "separator", "changes the separators of 'lodash'"],
    ["string_width", "string-width", "separator", "changes the separators of 'string-width'"],
    ["@evil/lodash", "lodash", "scope", "puts 'lodash' under the scope '@evil'"],
    ["@evil/ms", "ms", "scope", "puts 'ms' under the scope '@evil'"],
    ["1odash", "lodash", "homoglyph", "writes 'lodash' with look-alike characters"],
    ["l0dash", "lodash", "homoglyph", "writes 'lodash' with look-alike characters"],
    ["rnocha", "mocha", "homoglyph", "writes 'mocha' with look-alike characters"],
    ["rns", "ms", "homoglyph", "writes 'ms' with look-alike characters"],
    ["ch\u0430lk", "chalk", "homoglyph", "writes 'chalk' with look-alike characters"],
    ["m\u0456n\u0456match", "minimatch", "homoglyph", "writes 'minimatch' with look-alike characters"],
    ["vvs", "ws", "homoglyph", "writes 'ws' with look-alike characters"],
  ])("%s imitates %s by %s", (name, of, technique, phrase) => {
    const rank = rankOf(of);
    expect(rank).toBeGreaterThan(0);
    expect(typosquatCandidate("npm", name)).toEqual({
      of,
      technique,
      popularRank: rank,
      evidence: `'${name}' ${phrase}, one of the most downloaded npm packages (rank ${rank})`,
    });
  });

  it.each([
    ["@types/react", "DefinitelyTyped declarations for a popular package"],
    ["@types/lodash", "DefinitelyTyped declarations, itself popular"],
    ["lodash", "a popular name"],
    ["react", "a popular name"],
    ["JSONStream", "a popular legacy name with capitals"],
    ["@babel/core", "a popular scoped name"],
    ["@babel/cor", "a name in the same scope as a popular one: the scope's owner published it"],
    ["@sentry/vue", "a scope that owns popular packages is an established publisher"],
    ["mss", "a short name is compared only by look-alike characters and scope"],
    ["xyzzyplugh", "far from every popular name"],
    ["", "empty"],
  ])("%s is not a squat (%s)", (name) => {
    expect(typosquatCandidate("npm", name)).toBeNull();
  });

  it("names that are themselves popular are never squats, across the whole list", () => {
    const squats = popularNames("npm").filter((n) => typosquatCandidate("npm", n) !== null);
    expect(squats).toEqual([]);
  });

  it("a batch of 1,000 random names finds no squat", () => {
    const next = seeded(25);
    const letters = "abcdefghijklmnopqrstuvwxyz";
    const names = Array.from({ length: 1000 }, () => {
      const length = 9 + Math.floor(next() * 6);
      return Array.from({ length }, () => letters[Math.floor(next() * letters.length)]).join("");
    });
    expect(names.filter((n) => typosquatCandidate("npm", n) !== null)).toEqual([]);
  });

  it("1,000 lookups go through the index, not a pass over every popular name", () => {
    const popular = popularNames("npm");
    const known = new Set(popular.map((n) => n.toLowerCase()));
    const names = popular
      .filter((n) => !n.startsWith("@") && n.length > 5)
      .map((n) => n.slice(0, -1).toLowerCase())
      .filter((n) => !known.has(n))
      .slice(0, 1000);
    expect(names).toHaveLength(1000);
    const before = typosquatIndexStats("npm");
    const found = names.filter((n) => typosquatCandidate("npm", n) !== null);
    const after = typosquatIndexStats("npm");
    expect(found).toHaveLength(1000);
    expect(after.names).toBe(popular.length);
    // A pass over the list would verify ~16 million pairs; the symmetric-delete index verifies a handful per name.
    expect(after.verifications - before.verifications).toBeLessThan(20 * names.length);
  });
});

describe("popular-name lists", () => {
  it("npm ships npm-high-impact's download list, dated by its release", () => {
    const info = popularNamesInfo("npm");
    expect(info.source).toMatch(/^npm-high-impact \d+\.\d+\.\d+ \(MIT\)$/);
    expect(info.date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(info.count).toBe(popularNames("npm").length);
    expect(info.count).toBeGreaterThan(10000);
    expect(info.reason).toBeNull();
    expect(popularNames("npm").slice(0, 3)).toContain("semver");
  });

  it("PyPI has no list yet and says why; its lookups find nothing", () => {
    expect(popularNamesInfo("pypi")).toEqual({
      source: "none",
      date: null,
      count: 0,
      reason: "No popular-name list ships for PyPI; none is configured",
    });
    expect(popularNames("pypi")).toEqual([]);
    expect(typosquatCandidate("pypi", "reqeusts")).toBeNull();
  });
});

describe("the 100-times download rule", () => {
  it.each([
    [0, true],
    [9_999, true],
    [10_000, false],
    [2_000_000, false],
    [null, true],
  ])("a candidate with %s weekly downloads meets it: %s", (weekly, expected) => {
    expect(meetsDownloadRule(weekly, 101)).toBe(expected);
  });

  it("a rank outside the list meets nothing", () => {
    expect(meetsDownloadRule(5, 0)).toBe(false);
  });

  it("the evidence says how many downloads, or that they were unknown", () => {
    const match = typosquatCandidate("npm", "lodahs");
    expect(match).not.toBeNull();
    if (!match) return;
    expect(withDownloadEvidence(match, 120)?.evidence).toBe(
      `${match.evidence}; it has 120 weekly downloads, over 100 times fewer than the 1,000,000 a week every listed ` +
        "package has",
    );
    expect(withDownloadEvidence(match, null)?.evidence).toBe(
      `${match.evidence}; its own weekly downloads were unknown, so it was not checked to be 100 times less downloaded`,
    );
    expect(withDownloadEvidence(match, 50_000)).toBeNull();
  });
});
