// The sources of an assessment's answer in a user's words (walk of the dashboard): the answer names its sources by
// id ("hosting-asns", "workspace-events") with an origin token ("shipped", "embedded", "dns", "workspace"), which the
// "Sources" part of the answer showed as they are, with "not loaded" for a source the answer gives no date for (the
// phone numbering plans, which are loaded). A feed is named by its description from GET /sources (as the Data
// sources page names it), the service's own sources by words; the kind and the date are said in words.
import { describe, expect, it } from "vitest";
import {
  evidenceWords,
  sourceDate,
  sourceKind,
  sourceTitle,
} from "../../app/dashboard/_components/answers/source-words";

const feeds = new Map([
  ["hosting-asns", "ASNs operated by cloud, hosting and CDN providers (curated)"],
  ["spamhaus-drop", "Spamhaus DROP: IPv4 netblocks to drop"],
]);

describe("sourceTitle", () => {
  it("names a feed by its description, the service's own sources in words, and any other by its name", () => {
    expect(sourceTitle("hosting-asns", feeds)).toBe("ASNs operated by cloud, hosting and CDN providers (curated)");
    expect(sourceTitle("workspace-events", feeds)).toBe("This workspace's past assessments");
    expect(sourceTitle("dns", feeds)).toBe("DNS lookup");
    expect(sourceTitle("libphonenumber-js", feeds)).toBe("Phone numbering plans (libphonenumber)");
    expect(sourceTitle("DB-IP IP to City Lite", feeds)).toBe("DB-IP IP to City Lite");
    // Before the feeds' descriptions are read (or when they cannot be), a feed keeps its name.
    expect(sourceTitle("hosting-asns", new Map())).toBe("hosting-asns");
  });
});

describe("sourceKind", () => {
  it("says each origin in words, never its token", () => {
    expect(sourceKind("shipped")).toBe("List shipped with the release");
    expect(sourceKind("refreshed")).toBe("List refreshed from its source");
    expect(sourceKind("embedded")).toBe("Database built into the service");
    expect(sourceKind("dns")).toBe("Looked up live");
    expect(sourceKind("workspace")).toBe("This workspace's own records");
  });
});

describe("sourceDate", () => {
  it("a date when there is one; a feed with none has no data yet; another source is not dated", () => {
    expect(sourceDate({ name: "tor-exits", fetched_at: "2024-08-20T00:00:00.000Z" }, feeds)).toBe(
      "2024-08-20 00:00 UTC",
    );
    expect(sourceDate({ name: "spamhaus-drop", fetched_at: null }, feeds)).toBe("No data yet");
    expect(sourceDate({ name: "libphonenumber-js", fetched_at: null }, feeds)).toBe("Not dated");
  });
});

describe("evidenceWords", () => {
  it("says where a signal's evidence came from in words", () => {
    expect(evidenceWords(["request"], feeds)).toBe("the request");
    expect(evidenceWords(["iana-special-purpose-registries"], feeds)).toBe("IANA special-purpose address registries");
    expect(evidenceWords(["request", "hosting-asns"], feeds)).toBe(
      "the request, ASNs operated by cloud, hosting and CDN providers (curated)",
    );
  });
});
