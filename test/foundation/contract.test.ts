// Every procedure's contract (server/api/contract.ts) is the one source for its documented errors: the OpenAPI
// responses are grouped from the one code-to-status table, and a code a description promises is always declared.
import { describe, expect, it } from "vitest";
import { describePlans, errorCodesOf, plansForCapability, WEBHOOK_PLANS } from "../../server/api/contract";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { ERROR_STATUS, type ErrorCode } from "../../server/errors";

const doc = getOpenApiDocument();
const operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, ops]) =>
  Object.entries<any>(ops)
    .filter(([key]) => key !== "servers") // a path item's own servers (the badge, outside /v1), not an operation
    .map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
);
const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

describe.each(operations)("%s", (_name, op) => {
  it("documents each error status with exactly the codes of the one table", () => {
    const documented: ErrorCode[] = op["x-service-errors"];
    for (const code of documented) {
      const response = op.responses[String(ERROR_STATUS[code])];
      expect(response?.description, code).toContain(`\`${code}\``);
    }
    for (const [status, response] of Object.entries<any>(op.responses)) {
      if (Number(status) < 400) continue;
      const named = CODES.filter((c) => response.description.includes(`\`${c}\``));
      expect(
        named.every((c) => String(ERROR_STATUS[c]) === status),
        status,
      ).toBe(true);
    }
  });

  it("declares every error code its description promises", () => {
    const promised = CODES.filter((c) => new RegExp(`\\b${c}\\b`).test(op.description ?? ""));
    expect(op["x-service-errors"]).toEqual(expect.arrayContaining(promised));
  });
});

describe("plan sentences come from the catalog", () => {
  it("names plan families when all their plans qualify, otherwise the plans", () => {
    expect(describePlans(plansForCapability("full"))).toBe("a Suite or Lookups plan");
    expect(describePlans(WEBHOOK_PLANS())).toBe("the Suite Agency or Lookups Growth plan");
  });

  it("derives the ladder's codes from the requirement and metering", () => {
    expect(errorCodesOf({ requires: { webhooks: true }, errors: ["NOT_FOUND"] })).toEqual([
      "INVALID_REQUEST",
      "UNAUTHORIZED",
      "API_KEY_PAUSED",
      "CAPABILITY_REQUIRED",
      "ORIGIN_FORBIDDEN",
      "LOOKUP_NOT_FOUND",
      "NOT_FOUND",
      "INTERNAL_ERROR",
    ]);
    expect(errorCodesOf({ metered: { rateLimited: true }, requires: { bulk: () => true } })).toEqual(
      expect.arrayContaining(["QUOTA_EXCEEDED", "BULK_LOOKUPS_REQUIRED", "RATE_LIMITED", "UPSTREAM_UNAVAILABLE"]),
    );
  });

  it("takes a free answer's code from the decision itself (`decides`), without the route's errors naming it", () => {
    expect(errorCodesOf({ metered: { decided: ["DOMAIN_NOT_FOUND"] } })).toContain("DOMAIN_NOT_FOUND");
    // GET /domain/{domain}/subdomains declares no errors of its own: its 404 DOMAIN_NOT_FOUND is its decision's.
    const subdomains = doc.paths["/domain/{domain}/subdomains"].get;
    expect(subdomains["x-service-errors"]).toContain("DOMAIN_NOT_FOUND");
    expect(subdomains.responses["404"].description).toContain("`DOMAIN_NOT_FOUND`");
  });
});
