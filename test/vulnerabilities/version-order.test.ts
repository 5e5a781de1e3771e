import { describe, expect, it } from "vitest";
import { compareVersions, isValidVersion, sortVersions, type Ecosystem } from "../../server/vulnerabilities/versions";
import { normalizeComposerVersion, phpVersionCompare } from "../../server/vulnerabilities/versions/composer-order";

/** Asserts that every version in the list is strictly older than every later one. */
function expectAscending(ecosystem: Ecosystem, ordered: string[]) {
  for (let i = 0; i < ordered.length; i++) {
    for (let j = i + 1; j < ordered.length; j++) {
      expect(compareVersions(ecosystem, ordered[i], ordered[j]), `${ordered[i]} < ${ordered[j]}`).toBeLessThan(0);
      expect(compareVersions(ecosystem, ordered[j], ordered[i]), `${ordered[j]} > ${ordered[i]}`).toBeGreaterThan(0);
    }
  }
}

function expectEqual(ecosystem: Ecosystem, pairs: Array<[string, string]>) {
  for (const [a, b] of pairs) expect(compareVersions(ecosystem, a, b), `${a} == ${b}`).toBe(0);
}

describe("npm versions follow semver 2.0", () => {
  it("orders pre-releases before their release, as in the semver.org precedence example", () => {
    expectAscending("npm", [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
      "1.0.1",
      "1.2.0",
      "1.10.0",
      "2.0.0",
    ]);
  });
  it("puts 1.0.0-rc1 before 1.0.0 and ignores build metadata", () => {
    expectAscending("npm", ["1.0.0-rc1", "1.0.0"]);
    expectEqual("npm", [["1.0.0+build.5", "1.0.0"]]);
  });
  it("rejects strings that are not versions", () => {
    expect(isValidVersion("npm", "latest")).toBe(false);
    expect(() => compareVersions("npm", "banana", "1.0.0")).toThrow(/not a valid npm version/);
  });
});

describe("Go module versions are semver with a v prefix", () => {
  it("orders pseudo-versions before the release they precede", () => {
    expectAscending("go", [
      "v0.0.0-20191109021931-daa7c04131f5",
      "v0.0.0-20200101000000-aaaaaaaaaaaa",
      "v0.1.0",
      "v1.2.4-0.20191109021931-daa7c04131f5",
      "v1.2.4",
      "v1.10.0",
    ]);
  });
  it("treats +incompatible as build metadata and accepts OSV's unprefixed versions", () => {
    expectEqual("go", [
      ["v2.0.0+incompatible", "v2.0.0"],
      ["1.2.3", "v1.2.3"],
    ]);
  });
});

describe("PyPI versions follow PEP 440", () => {
  it("orders the PEP 440 summary example of dev, pre, post and local releases", () => {
    expectAscending("pypi", [
      "1.dev0",
      "1.0.dev456",
      "1.0a1",
      "1.0a2.dev456",
      "1.0a12.dev456",
      "1.0a12",
      "1.0b1.dev456",
      "1.0b2",
      "1.0b2.post345.dev456",
      "1.0b2.post345",
      "1.0rc1.dev456",
      "1.0rc1",
      "1.0",
      "1.0+abc.5",
      "1.0+abc.7",
      "1.0+5",
      "1.0.post456.dev34",
      "1.0.post456",
      "1.0.15",
      "1.1.dev1",
    ]);
  });
  it("lets an epoch outrank any version without one", () => {
    expectAscending("pypi", ["2024.1", "1!0.1", "1!1.0", "2!0.0.1"]);
  });
  it("normalises spellings: 1.0.0-rc1 equals 1.0rc1, 1.0 equals 1.0.0, 1.0-1 is a post-release", () => {
    expectEqual("pypi", [
      ["1.0.0-rc1", "1.0rc1"],
      ["1.0", "1.0.0"],
      ["1.0-1", "1.0.post1"],
      ["1.0alpha1", "1.0a1"],
    ]);
    expectAscending("pypi", ["1.0.0-rc1", "1.0.0"]);
  });
});

describe("Maven versions follow ComparableVersion", () => {
  it("orders qualifiers as Maven's own ComparableVersionTest does", () => {
    expectAscending("maven", [
      "1-alpha2snapshot",
      "1-alpha2",
      "1-alpha-123",
      "1-beta-2",
      "1-beta123",
      "1-m2",
      "1-m11",
      "1-rc",
      "1-cr2",
      "1-rc123",
      "1-SNAPSHOT",
      "1",
      "1-sp",
      "1-sp2",
      "1-sp123",
      "1-abc",
      "1-def",
      "1-pom-1",
      "1-1-snapshot",
      "1-1",
      "1-2",
      "1-123",
    ]);
  });
  it("orders numbers and mixed items as Maven's own ComparableVersionTest does", () => {
    expectAscending("maven", [
      "2.0",
      "2-1",
      "2.0.a",
      "2.0.0.a",
      "2.0.2",
      "2.0.123",
      "2.1.0",
      "2.1-a",
      "2.1b",
      "2.1-c",
      "2.1-1",
      "2.1.0.1",
      "2.2",
      "2.123",
      "11.a2",
      "11.a11",
      "11.b2",
      "11.b11",
      "11.m2",
      "11.m11",
      "11",
      "11.a",
      "11b",
      "11c",
      "11m",
    ]);
  });
  it("treats ga, final, release and trailing zeros as the plain release, and single letters before digits as aliases", () => {
    expectEqual("maven", [
      ["1", "1.0"],
      ["1", "1.0.0"],
      ["1.0", "1-ga"],
      ["1", "1-final"],
      ["1", "1.0-RELEASE"],
      ["1-a1", "1-alpha-1"],
      ["1-b2", "1-beta-2"],
      ["1-m3", "1-milestone-3"],
      ["1-rc", "1-cr"],
      ["1.0.0.FINAL", "1.0.0"],
    ]);
    expectAscending("maven", ["2.14.0-rc1", "2.14.0", "2.14.1", "2.15.0-SNAPSHOT", "2.15.0"]);
  });
  it("compares numbers longer than 64 bits exactly", () => {
    expectAscending("maven", ["1.99999999999999999998", "1.99999999999999999999", "1.100000000000000000000"]);
  });
});

describe("Composer versions follow VersionParser::normalize and version_compare", () => {
  it("normalises like composer/semver", () => {
    expect(normalizeComposerVersion("v1.2")).toBe("1.2.0.0");
    expect(normalizeComposerVersion("1.0.0RC1")).toBe("1.0.0.0-RC1");
    expect(normalizeComposerVersion("2.0-p1")).toBe("2.0.0.0-patch1");
    expect(normalizeComposerVersion("1.0.0-beta.2")).toBe("1.0.0.0-beta2");
    expect(normalizeComposerVersion("1.0.0-alpha3-dev")).toBe("1.0.0.0-alpha3-dev");
    expect(normalizeComposerVersion("1.0.0+build.1")).toBe("1.0.0.0");
    expect(normalizeComposerVersion("20100102-203040")).toBe("20100102.203040");
    expect(isValidVersion("composer", "dev-main")).toBe(false);
  });
  it("orders dev < alpha < beta < RC < release < patch", () => {
    expectAscending("composer", [
      "1.0.0-dev",
      "1.0.0-alpha1",
      "1.0.0-alpha2",
      "1.0.0-beta1",
      "1.0.0-beta10",
      "1.0.0-RC1",
      "1.0.0",
      "1.0.0-p1",
      "1.0.1",
      "v1.1",
      "1.10.0",
    ]);
    expectEqual("composer", [
      ["v2.0", "2.0.0.0"],
      ["1.0.0-stable", "1.0.0"],
      ["1.0.0-rc1", "1.0.0RC1"],
    ]);
  });
  it("matches PHP's version_compare on raw strings", () => {
    expect(phpVersionCompare("5.2", "5.2.0")).toBe(-1);
    expect(phpVersionCompare("1.0rc1", "1.0")).toBe(-1);
    expect(phpVersionCompare("1.0", "1.0pl1")).toBe(-1);
    expect(phpVersionCompare("1.0-dev", "1.0a")).toBe(-1);
    expect(phpVersionCompare("8.1.0", "8.1.0")).toBe(0);
  });
});

describe("sortVersions", () => {
  it("sorts ascending in the ecosystem's order and drops non-versions", () => {
    expect(sortVersions("pypi", ["1.0", "1.0rc1", "nonsense!", "0.9"])).toEqual(["0.9", "1.0rc1", "1.0"]);
    expect(sortVersions("maven", ["1.0", "1.0-SNAPSHOT", "1.0-sp1", "1.0-alpha"])).toEqual([
      "1.0-alpha",
      "1.0-SNAPSHOT",
      "1.0",
      "1.0-sp1",
    ]);
  });
});
