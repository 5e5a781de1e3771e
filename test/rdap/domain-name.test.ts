// The domain parser of every /domain/{domain} route (server/api/routers/domain/shared.ts), RDAP's included.
import { describe, expect, it } from "vitest";
import { registrableDomain } from "../../server/api/routers/domain/shared";

describe("RDAP domain input", () => {
  it.each([
    "exa\nmple.com",
    "exa\tmple.com",
    "exa mple.com",
    "example.com\u0000",
    "exa\u007fmple.com",
    "0x10",
    "1.2.3.4",
    "xn--zz.com",
    "xn--.com",
  ])("refuses %j", (raw) => {
    expect(registrableDomain.safeParse(raw).success).toBe(false);
  });

  it("passes the checked ASCII form on, IDNs included", () => {
    expect(registrableDomain.parse("Example.COM.")).toBe("example.com");
    expect(registrableDomain.parse("bücher.de")).toBe("xn--bcher-kva.de");
    expect(registrableDomain.parse("XN--BCHER-KVA.DE")).toBe("xn--bcher-kva.de");
  });
});
