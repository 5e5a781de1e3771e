// ISO 3166-1 alpha-2 codes as /assess's billing_country reads them (server/countries.ts).
import { describe, expect, it } from "vitest";
import { countryCodeOf, countryInSentence, isCountryCode } from "../../server/countries";

describe("isCountryCode", () => {
  it("takes countries and territories in any case, Kosovo's XK included", () => {
    for (const c of ["US", "gb", "De", "GG", "PR", "HK", "XK", "AQ"]) expect(isCountryCode(c), c).toBe(true);
  });

  it("refuses codes that name no place a card or an address is in, and anything not two letters", () => {
    for (const c of ["XX", "ZZ", "EU", "UN", "QO", "AA", "USA", "U", "", "1A", "U$"])
      expect(isCountryCode(c), c).toBe(false);
  });

  // ICU names these by the code that replaced them (UK is GB's, SU Russia's, DD Germany's): none is an ISO 3166-1
  // alpha-2 code, and a billing country "UK" compared with the IP's "GB" was a country mismatch.
  it("refuses the old and reserved codes the platform reads as another country's", () => {
    for (const c of ["UK", "uk", "SU", "YU", "DD", "FX", "BU", "TP", "ZR", "AN", "CS"])
      expect(isCountryCode(c), c).toBe(false);
  });
});

describe("countryCodeOf", () => {
  it("reads a code upper-cased, UK (ISO's reservation for the United Kingdom) as GB, and nothing else as another", () => {
    expect(["gb", "Uk", "uk", "de", "XK"].map(countryCodeOf)).toEqual(["GB", "GB", "GB", "DE", "XK"]);
    for (const c of ["SU", "YU", "DD", "XX", "EU", "ZZ", "USA", ""]) expect(countryCodeOf(c), c).toBeNull();
  });
});

// Reasons are read by people: "The phone number is from United States but the IP address is in United Kingdom"
// (found on /assess with a US phone from a UK address) reads as English only with the article.
describe("countryInSentence", () => {
  it("writes the article English uses with a country's name, and the code when no region is named by it", () => {
    const said = (c: string) => countryInSentence(c);
    expect(["US", "GB", "NL", "PH", "AE", "DO", "KY", "VI", "IM", "PS", "BS"].map(said)).toEqual([
      "the United States",
      "the United Kingdom",
      "the Netherlands",
      "the Philippines",
      "the United Arab Emirates",
      "the Dominican Republic",
      "the Cayman Islands",
      "the U.S. Virgin Islands",
      "the Isle of Man",
      "the Palestinian Territories",
      "the Bahamas",
    ]);
    expect(said("VA")).toBe("Vatican City"); // not "the Vatican City"
    expect(["CA", "DE", "FR", "CZ", "JP", "IE", "XK", "us"].map(said)).toEqual([
      "Canada",
      "Germany",
      "France",
      "Czechia",
      "Japan",
      "Ireland",
      "Kosovo",
      "the United States",
    ]);
    expect(said("XX")).toBe("XX");
  });
});
