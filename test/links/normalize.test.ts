// The normalization that decides reuse, and the URL rules, without the database.
import { describe, expect, it } from "vitest";
import { parseDestination } from "../../server/links/normalize";
import { newSlug, SLUG_PATTERN } from "../../server/links/slug";

describe("parseDestination", () => {
  it.each([
    ["HTTPS://Example.COM:443/A/b?Q=1#frag", "https://example.com/A/b?Q=1#frag", "https://example.com/A/b?Q=1"],
    ["http://example.com:80", "http://example.com/", "http://example.com/"],
    ["https://example.com:8443/x", "https://example.com:8443/x", "https://example.com:8443/x"],
    ["https://example.com./x", "https://example.com./x", "https://example.com/x"],
    ["https://bücher.example/", "https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/"],
    ["https://example.com/a/../b?", "https://example.com/b?", "https://example.com/b?"],
  ])("normalizes %s", (input, url, normalized) => {
    expect(parseDestination(input)).toMatchObject({ url, normalized });
  });

  it("marks IP literals in any spelling", () => {
    expect(parseDestination("http://0x7f.1/")).toMatchObject({ host: "127.0.0.1", ipLiteral: true });
    expect(parseDestination("http://[::ffff:10.0.0.1]/")).toMatchObject({ ipLiteral: true });
    expect(parseDestination("https://example.com/")).toMatchObject({ host: "example.com", ipLiteral: false });
  });

  it.each([
    "mailto:a@example.com",
    "//example.com/",
    "https://u@example.com/",
    "https://:p@example.com/",
    "https://exa_mple..com/",
  ])("refuses %s", (input) => {
    expect(parseDestination(input)).toEqual({ error: expect.stringMatching(/^url: /) });
  });
});

describe("newSlug", () => {
  it("draws distinct URL-safe slugs of seven characters", () => {
    const slugs = new Set(Array.from({ length: 1000 }, () => newSlug()));
    expect(slugs.size).toBe(1000);
    for (const s of slugs) expect(s).toMatch(SLUG_PATTERN);
  });
});
