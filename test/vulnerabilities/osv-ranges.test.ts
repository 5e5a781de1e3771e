import { describe, expect, it } from "vitest";
import { describeRange, evaluateAffected, rangeIncludes } from "../../server/vulnerabilities/osv-ranges";
import { cvssBaseScore, severityFromLabel, severityOfOsv } from "../../server/vulnerabilities/severity";

describe("OSV range evaluation", () => {
  const twoIntervals = {
    type: "ECOSYSTEM",
    events: [{ introduced: "3.0.0rc1" }, { fixed: "3.1.3" }, { introduced: "0" }, { fixed: "2.10.1" }],
  };

  it("applies events in version order whatever order the record lists them", () => {
    expect(["2.9", "2.10", "3.0.0rc1", "3.1.2"].map((v) => rangeIncludes("pypi", twoIntervals, v))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["2.10.1", "2.11", "3.0.0b1", "3.1.3", "4.0"].map((v) => rangeIncludes("pypi", twoIntervals, v))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(describeRange("pypi", twoIntervals)).toEqual(["<2.10.1", ">=3.0.0rc1 <3.1.3"]);
  });

  it("treats last_affected as inclusive and an open introduced as unbounded", () => {
    const r = {
      type: "SEMVER",
      events: [{ introduced: "1.0.0" }, { last_affected: "1.4.2" }, { introduced: "2.0.0-rc.1" }],
    };
    expect(["1.4.2", "1.4.3", "2.0.0-rc.1", "2.0.0-beta.1", "9.0.0"].map((v) => rangeIncludes("npm", r, v))).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
    expect(describeRange("npm", r)).toEqual([">=1.0.0 <=1.4.2", ">=2.0.0-rc.1"]);
  });

  it("excludes versions at or beyond a limit event", () => {
    const r = { type: "ECOSYSTEM", events: [{ introduced: "0" }, { limit: "2.0.0" }] };
    expect(rangeIncludes("npm", r, "1.9.9")).toBe(true);
    expect(rangeIncludes("npm", r, "2.0.0")).toBe(false);
    expect(rangeIncludes("npm", { type: "ECOSYSTEM", events: [{ introduced: "0" }, { limit: "*" }] }, "99.0.0")).toBe(
      true,
    );
  });

  it("decides from the versions list when only commit ranges exist, and says undecided otherwise", () => {
    const git = { type: "GIT", repo: "https://github.com/x/y", events: [{ introduced: "abc" }, { fixed: "def" }] };
    expect(evaluateAffected("npm", [{ ranges: [git], versions: ["1.0.0"] }], "1.0.0")).toEqual({
      affected: true,
      matchedRanges: ["versions list includes 1.0.0"],
      nearestFixedVersion: null,
    });
    expect(evaluateAffected("npm", [{ ranges: [git], versions: ["1.0.0"] }], "1.0.1").affected).toBe(false);
    expect(evaluateAffected("npm", [{ ranges: [git] }], "1.0.0").affected).toBeNull();
    expect(describeRange("npm", git)).toEqual([
      "git https://github.com/x/y introduced abc",
      "git https://github.com/x/y fixed def",
    ]);
  });

  it("picks the nearest fixed version above the selected one", () => {
    const entries = [
      {
        ranges: [
          {
            type: "ECOSYSTEM",
            events: [
              { introduced: "2.0-beta9" },
              { fixed: "2.3.1" },
              { introduced: "2.4" },
              { fixed: "2.12.2" },
              { introduced: "2.13.0" },
              { fixed: "2.15.0" },
            ],
          },
        ],
      },
    ];
    expect(evaluateAffected("maven", entries, "2.14.1")).toEqual({
      affected: true,
      matchedRanges: [">=2.13.0 <2.15.0"],
      nearestFixedVersion: "2.15.0",
    });
    expect(evaluateAffected("maven", entries, "2.12.2").affected).toBe(false);
  });
});

describe("severity mapping", () => {
  it("prefers the database label, mapping medium to moderate", () => {
    expect(severityFromLabel("MODERATE")).toBe("moderate");
    expect(severityFromLabel("Medium")).toBe("moderate");
    expect(severityFromLabel("info")).toBe("low");
    expect(
      severityOfOsv({
        id: "X",
        modified: "",
        database_specific: { severity: "CRITICAL" },
        severity: [{ type: "CVSS_V3", score: "CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:N/I:N/A:L" }],
      }),
    ).toBe("critical");
  });

  it("bands the highest CVSS base score when there is no label", () => {
    expect(cvssBaseScore("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H")).toBe(10);
    expect(cvssBaseScore("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N")).toBe(9.3);
    expect(cvssBaseScore("AV:N/AC:L/Au:N/C:P/I:P/A:P")).toBe(7.5);
    expect(cvssBaseScore("not a vector")).toBeNull();
    const rec = (score: string) => ({ id: "X", modified: "", severity: [{ type: "CVSS_V3", score }] });
    expect(severityOfOsv(rec("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"))).toBe("critical");
    expect(severityOfOsv(rec("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N"))).toBe("high");
    expect(severityOfOsv(rec("CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N"))).toBe("moderate");
    expect(severityOfOsv(rec("CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:N/I:N/A:L"))).toBe("low");
    expect(severityOfOsv({ id: "X", modified: "" })).toBe("unknown");
  });
});
