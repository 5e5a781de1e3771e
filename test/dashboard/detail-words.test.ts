// The Details view of an answer says the API's field names and token values in words
// (app/dashboard/_components/answers/detail-words.ts).
import { describe, expect, it } from "vitest";
import { fieldLabel, valueWords } from "../../app/dashboard/_components/answers/detail-words";

describe("detail words", () => {
  it.each([
    ["ip", "IP address"],
    ["asnReason", "ASN reason"],
    ["proxyReason", "Proxy reason"],
    ["snapshotDate", "Snapshot date"],
    ["torExit", "Tor exit"],
    ["chainVerified", "Chain verified"],
    ["risk_level", "Risk level"],
    ["ipv6Prefix", "IPv6 prefix"],
    ["cdn", "CDN"],
    ["constructor", "Constructor"],
  ])("labels the field %s as %s", (key, label) => {
    expect(fieldLabel(key)).toBe(label);
  });

  it.each([
    ["exit_list", "exit list"],
    ["datacenter_range", "datacenter range"],
    ["tor-exits", "tor-exits"],
    ["Tor exit relay", "Tor exit relay"],
    ["user_1@example.com", "user_1@example.com"],
  ])("says the value %s as %s", (value, words) => {
    expect(valueWords(value)).toBe(words);
  });
});
