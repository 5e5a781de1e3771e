// What a plan's capabilities give, in the words the Plan page and the Overview share: "Full intelligence", or
// "Geolocation and vulnerabilities". The Overview listed the catalog's slugs ("Capabilities: full, geolocation,
// vulnerabilities") where the Plan page said "Full intelligence" of the same plan.

export function accessWords(capabilities: readonly string[], options: { only?: boolean } = {}): string {
  if (capabilities.includes("full")) return "Full intelligence";
  return options.only ? "Geolocation and vulnerabilities only" : "Geolocation and vulnerabilities";
}
