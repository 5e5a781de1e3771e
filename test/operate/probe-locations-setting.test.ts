// SERVICE_PROBE_LOCATIONS: the settings check added at start refused values the earlier reader (skip what it cannot
// use, 901982c:server/online-check/config.ts) took and used, so a server configured with them stopped at start: a
// bare name (a local probe with that label), `NAME=` (the same), names with a space or non-ASCII letters. They are
// taken again, as they were read; only entries no probe can be made of are refused.
import { afterEach, describe, expect, it } from "vitest";
import { parseProbeLocation } from "../../server/env/addresses";
import { configurationProblems } from "../../server/startup/validate";

afterEach(() => {
  delete process.env.SERVICE_PROBE_LOCATIONS;
});

describe("SERVICE_PROBE_LOCATIONS entries", () => {
  it("takes what the earlier reader took and used, read as it read them", () => {
    expect(parseProbeLocation("local")).toEqual({ name: "local", kind: "local" });
    expect(parseProbeLocation("local=")).toEqual({ name: "local", kind: "local" });
    expect(parseProbeLocation("local=eu-west")).toEqual({ name: "eu-west", kind: "local" });
    expect(parseProbeLocation("local=Zürich Office")).toEqual({ name: "Zürich Office", kind: "local" });
    expect(parseProbeLocation("eu-west")).toEqual({ name: "eu-west", kind: "local" });
    expect(parseProbeLocation("eu-west=")).toEqual({ name: "eu-west", kind: "local" });
    expect(parseProbeLocation("eu-west=local")).toEqual({ name: "eu-west", kind: "local" });
    expect(parseProbeLocation("Zürich=https://probe.example/probe")).toEqual({
      name: "Zürich",
      kind: "remote",
      url: "https://probe.example/probe",
    });
    expect(parseProbeLocation("US East = http://127.0.0.1:9/probe")).toEqual({
      name: "US East",
      kind: "remote",
      url: "http://127.0.0.1:9/probe",
    });
  });

  it("refuses what no probe can be made of", () => {
    for (const entry of [
      "us=ftp://x", // not http(s)
      "us=not a url",
      "us=https://",
      "=https://probe.example/probe", // no name to show in answers
      "=local",
      "https://probe.example/probe", // a URL without a name: a remote probe was meant
      "local=https://probe.example/probe",
    ])
      expect({ entry, parsed: parseProbeLocation(entry) }).toEqual({ entry, parsed: null });
  });

  it("a server configured with a bare name, an empty value or a spaced or accented name starts", () => {
    process.env.SERVICE_PROBE_LOCATIONS = "eu-west,us=,Zürich=https://probe.example/probe,New York=local";
    expect(configurationProblems()).toEqual([]);
  });
});
