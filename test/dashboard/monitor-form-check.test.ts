// The monitor form says what is wrong with a field in the words of its label, before sending (F-mon-1): never the
// API's schema paths such as "thresholds.tls_expiry_days.0: Too small" or "checks.2: Invalid input".
import { describe, expect, it } from "vitest";
import { monitorFormProblems, monitorServerProblem } from "../../app/dashboard/monitors/form-check";

const blank = { expiry: "", packages: "", recordTypes: "", selectors: "" };

describe("monitorFormProblems", () => {
  it("names the days that are not whole numbers from 1 to 365", () => {
    expect(monitorFormProblems(["tls"], { ...blank, expiry: "0, -3, abc" })).toEqual({
      expiry: "Days must be whole numbers from 1 to 365, separated by commas (not “0”, “-3”, “abc”).",
    });
    expect(monitorFormProblems(["tls"], { ...blank, expiry: "21, 7" })).toEqual({});
    expect(monitorFormProblems(["tls"], { ...blank, expiry: "" })).toEqual({});
  });

  it("refuses a number of days given twice, as the API does", () => {
    expect(monitorFormProblems(["tls"], { ...blank, expiry: "30, 30" })).toEqual({
      expiry: "30 is given more than once; give each number of days once.",
    });
    expect(monitorFormProblems(["tls"], { ...blank, expiry: "30, 7, 030" }).expiry).toMatch(/^30 is given/);
  });

  it("names each package line at fault and what it needs", () => {
    expect(
      monitorFormProblems(["packages"], {
        ...blank,
        packages: "lodash\nnpm left-pad\ncargo serde 1.0.0\nnpm lodash 4.17.20",
      }),
    ).toEqual({
      packages:
        "Packages: line 1 needs an ecosystem, a name and a version, such as npm lodash 4.17.20; line 2 needs an ecosystem, a name and a version, such as npm lodash 4.17.20; line 3: “cargo” is not one of npm, composer, pypi, maven, go.",
    });
    expect(monitorFormProblems(["packages"], { ...blank, packages: "npm lodash 4.17.20\n\nPyPI django 4.2" })).toEqual(
      {},
    );
  });

  it("checks only the fields of the checks chosen", () => {
    expect(monitorFormProblems(["reachability"], { ...blank, expiry: "abc", recordTypes: "XYZ" })).toEqual({});
    expect(monitorFormProblems(["dns"], { ...blank, recordTypes: "A, XYZ" }).recordTypes).toMatch(/\(not “XYZ”\)/);
  });
});

describe("monitorServerProblem", () => {
  it("says the API's field as the form's label, at that field", () => {
    expect(monitorServerProblem("target must be a host name, domain or IP address.", "Target")).toEqual({
      field: "target",
      text: "Target must be a host name, domain or IP address.",
    });
    expect(
      monitorServerProblem("thresholds.tls_expiry_days.0: Too small: expected number to be >=1", "Target").field,
    ).toBe("expiry");
    expect(monitorServerProblem("checks.2: Invalid input", "Target").text).not.toMatch(/checks\.\d/);
    expect(
      monitorServerProblem(
        "thresholds.tls_expiry_days: 30 is given more than once; give each number of days once",
        "Target",
      ),
    ).toEqual({ field: "expiry", text: "30 is given more than once; give each number of days once." });
  });
});
