import { describe, expect, it } from "vitest";
import { domainName } from "../../server/api/routers/rdap";

describe("RDAP domain input", () => {
  it.each(["exa\nmple.com", "exa\tmple.com", "exa mple.com", "example.com\u0000", "exa\u007fmple.com"])(
    "refuses %j",
    (raw) => {
      expect(domainName.safeParse(raw).success).toBe(false);
    },
  );

  it("passes the checked ASCII form on, IDNs included", () => {
    expect(domainName.parse("Example.COM.")).toBe("example.com");
    expect(domainName.parse("bücher.de")).toBe("xn--bcher-kva.de");
  });
});
