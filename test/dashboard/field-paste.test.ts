// The console's domain and host fields take a pasted URL as its host (issue 22, item 8).
import { describe, expect, it } from "vitest";
import { fieldValueFromPaste } from "../../app/dashboard/console/field-text";

describe("a URL pasted into a domain or host field", () => {
  it.each([
    ["domain", "https://www.example.com/path?q=1#x", "www.example.com"],
    ["domain", "  http://Example.COM  ", "example.com"],
    ["domain", "https://example.com:8443/", "example.com"],
    ["host", "https://example.com:8443/login", "example.com:8443"],
    ["host", "https://example.com/", "example.com"],
    ["expected_hostname", "https://shop.example.com/checkout", "shop.example.com"],
    ["domain", " example.com ", "example.com"],
    ["domain", "www.example.com/pricing", "www.example.com"],
    ["host", "example.com:8443/health", "example.com:8443"],
    ["domain", "mailto:jane@example.com", "mailto:jane@example.com"],
  ])("%s %j becomes %j", (name, pasted, looked) => {
    expect(fieldValueFromPaste(name, pasted)).toBe(looked);
  });

  it("leaves other fields as typed", () => {
    expect(fieldValueFromPaste("url", "https://example.com/path")).toBe("https://example.com/path");
    expect(fieldValueFromPaste("ip", " 8.8.8.8 ")).toBe(" 8.8.8.8 ");
  });
});
