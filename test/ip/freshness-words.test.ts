// What the docs say of a list's age must be what the scoring does: the `weightFactor` of every privacy match and the
// scoring rules in /assess's description name each kind's freshness window from FRESHNESS_DAYS. The field's
// description had left out scanners (30 days) and hosting (90) when those kinds were added (found reading
// GET /v1/ip/{ip}'s documented answer beside a scanner's quarter weight).
import { describe, expect, it } from "vitest";
import { FRESHNESS_DAYS, freshnessWindowsInWords } from "../../server/feeds/definitions/ranges";
import { privacySchema, privacySnakeSchema } from "../../server/ip/privacy-schema";
import { SCORING_DOC } from "../../server/scoring/score";

const WORDS: Record<string, RegExp> = {
  tor: /Tor/,
  vpn: /VPN/,
  relay: /relay/,
  scanner: /scanners/,
  crawler: /crawlers/,
  cloud: /cloud/,
  hosting: /hosting/,
  cdn: /CDN/,
  platform: /platform/,
  monitor: /monitors/,
};

describe("freshness windows in the docs", () => {
  it("name every evidence kind with its window", () => {
    const words = freshnessWindowsInWords();
    for (const group of words.split("; ")) expect(group).toMatch(/ \d+( days)?$/);
    for (const [kind, days] of Object.entries(FRESHNESS_DAYS)) {
      const group = words.split("; ").find((g) => WORDS[kind]!.test(g));
      expect(group, kind).toBeDefined();
      expect(Number(group!.match(/ (\d+)( days)?$/)![1]), kind).toBe(days);
    }
  });

  it("are what a privacy match's weightFactor and the scoring rules say", () => {
    const words = freshnessWindowsInWords();
    expect(privacySchema.shape.matches.element.shape.weightFactor.description).toContain(`(${words})`);
    expect(privacySnakeSchema.shape.matches.element.shape.weight_factor.description).toContain(`(${words})`);
    expect(SCORING_DOC).toContain(`(${words})`);
  });
});
