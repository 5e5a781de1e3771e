// Which field of a form a refusal is about (app/dashboard/_components/field-problem.ts): that field is marked
// aria-invalid, described by the refusal and focused after a refused submit. The pages themselves are walked in
// e2e/form-errors.spec.ts; this holds the rule that picks the field.
import { describe, expect, it } from "vitest";
import { refusedField } from "../../app/dashboard/_components/field-problem";
import { refusedFields } from "../../app/dashboard/_components/field-words";

const refusal = (appCode: string, message: string) => ({ message, data: { appCode } });
const PACKAGE = { labels: { ecosystem: "Ecosystem", coordinate: "Package", version: "Version" }, main: "coordinate" };

describe("refusedField", () => {
  it("is the field the message names first, in any of the API's spellings", () => {
    expect(
      refusedFields("url: must be an http(s) URL; visibility: Invalid option", { url: "Site", visibility: "V" }),
    ).toEqual(["url", "visibility"]);
    expect(refusedField(refusal("INVALID_REQUEST", "version: is required"), PACKAGE)).toBe("version");
    expect(
      refusedField(refusal("INVALID_REQUEST", "cveId: must be a CVE identifier"), { labels: { cveId: "CVE" } }),
    ).toBe("cveId");
    expect(
      refusedField(refusal("INVALID_REQUEST", "added_until must not be before added_since"), {
        labels: { added_since: "Added since", added_until: "Added until" },
      }),
    ).toBe("added_until");
  });

  it("is the input a refusal made in the page names (a console body that is not JSON), whatever its message says", () => {
    const notJson = { message: "The request body is not valid JSON: Unexpected token 'j'", field: "request body" };
    expect(refusedField(notJson, { labels: { email: "Email" }, main: "email" })).toBe("request body");
  });

  it("is the form's main field for a refusal of what was typed that names none, or the one its code is about", () => {
    expect(refusedField(refusal("PACKAGE_NOT_FOUND", "No such package on npm."), PACKAGE)).toBe("coordinate");
    expect(refusedField(refusal("TARGET_FORBIDDEN", "The host resolves to a private address."), PACKAGE)).toBe(
      "coordinate",
    );
    expect(
      refusedField(refusal("VERSION_NOT_FOUND", "9.9.9 is not a published version."), {
        ...PACKAGE,
        byCode: { VERSION_NOT_FOUND: "version" },
      }),
    ).toBe("version");
  });

  it("is no field for a refusal about the workspace, the plan or the service, nor for none", () => {
    for (const code of ["QUOTA_EXCEEDED", "CAPABILITY_REQUIRED", "RATE_LIMITED", "UPSTREAM_UNAVAILABLE"])
      expect(refusedField(refusal(code, "Not now."), PACKAGE)).toBeNull();
    expect(refusedField(new TypeError("Failed to fetch"), PACKAGE)).toBeNull();
    expect(refusedField(null, PACKAGE)).toBeNull();
    // A form without a main field marks none for a refusal that names no field of it.
    expect(refusedField(refusal("INVALID_REQUEST", "limit: too big"), { labels: { query: "Text" } })).toBeNull();
  });
});
