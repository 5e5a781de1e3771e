// A refusal from the API names its fields as the API does ("billing_country must be an ISO 3166-1 alpha-2 code",
// "ip: must be a valid IPv4 or IPv6 address") and may say one field's problem twice (the code's shape, then "is not a
// country"). A form says it with its own labels, once per field, without the standard's number: "Billing country
// must be a two-letter country code such as DE".

/** The standards' names that mean nothing to a person filling in a form, in plain words. */
const PLAIN: [RegExp, string][] = [
  [/an ISO 3166-1 alpha-2 code/g, "a two-letter country code such as DE"],
  [/\s*\(ISO 3166-1 alpha-2\)/g, ""],
  [/an ISO 4217 code/g, "a three-letter currency code such as EUR"],
];

/** `message` with each part about a field in `labels` said by its label, one part per field. */
export function inFormWords(message: string, labels: Record<string, string>): string {
  const seen = new Set<string>();
  const parts = message.split(/;\s+/).flatMap((raw) => {
    const part = raw.trim().replace(/[.;]+$/, "");
    const m = /^([a-z_]+(?:\.[a-z0-9_]+)*):?\s+([\s\S]*)$/.exec(part);
    if (!m || !Object.hasOwn(labels, m[1])) return [part];
    if (seen.has(m[1])) return [];
    seen.add(m[1]);
    const said = PLAIN.reduce((s, [re, plain]) => s.replace(re, plain), m[2]);
    // "must be …" continues the label's sentence; a sentence of its own ("A domain name has no spaces …") follows it.
    return [/^[A-Z]/.test(said) ? `${labels[m[1]]}: ${said}` : `${labels[m[1]]} ${said}`];
  });
  return `${parts.filter(Boolean).join("; ")}.`;
}
