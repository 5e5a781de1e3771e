// A refusal from the API names its fields as the API does ("billing_country must be an ISO 3166-1 alpha-2 code",
// "ip: must be a valid IPv4 or IPv6 address", "cveId: must be a CVE identifier …") and may say one field's problem
// twice (the code's shape, then "is not a country"). A form says it with its own labels, once per field, without the
// standard's number: "Billing country must be a two-letter country code such as DE". The same reading tells a form
// which of its fields a refusal is about (refusedFields), so that field can be marked (field-problem.ts).

/** The standards' names that mean nothing to a person filling in a form, in plain words. */
const PLAIN: [RegExp, string][] = [
  [/an ISO 3166-1 alpha-2 code/g, "a two-letter country code such as DE"],
  [/\s*\(ISO 3166-1 alpha-2\)/g, ""],
  [/an ISO 4217 code/g, "a three-letter currency code such as EUR"],
];

/** A part of a message that begins with a field's name (snake_case, camelCase or a dotted path), and the rest. */
const FIELD_PART = /^([a-z][a-zA-Z0-9_]*(?:\.[a-zA-Z0-9_]+)*):?\s+([\s\S]*)$/;

/** Names no person would write (an underscore or a capital inside): safe to say by their label inside a sentence. */
const API_NAME = /^[a-z]+(?:[_][a-z0-9_]+|[A-Z][a-zA-Z0-9]*)+$/;

function parts(message: string, labels: Record<string, string>): { field: string | null; text: string }[] {
  return message.split(/;\s+/).map((raw) => {
    const text = raw.trim().replace(/[.;]+$/, "");
    const m = FIELD_PART.exec(text);
    // "dkim_selectors.1: …" is about the DKIM selectors field: the longest leading part of the path the form labels.
    const path = m ? m[1].split(".") : [];
    const at = path.map((_, i) => path.slice(0, path.length - i).join(".")).find((p) => Object.hasOwn(labels, p));
    return m && at ? { field: at, text: m[2] } : { field: null, text };
  });
}

/** The fields of `labels` the message names, in its order, each once. */
export function refusedFields(message: string, labels: Record<string, string>): string[] {
  return [...new Set(parts(message, labels).flatMap((p) => (p.field ? [p.field] : [])))];
}

/** `message` with each part about a field in `labels` said by its label, one part per field. */
export function inFormWords(message: string, labels: Record<string, string>): string {
  const seen = new Set<string>();
  // Another field named inside the words ("must not be before added_since") is said by its label too.
  const others = Object.keys(labels).filter((k) => API_NAME.test(k));
  // Mid-sentence, "Added since" reads "added since"; "IP address" keeps its capitals.
  const mid = (label: string) => (/^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label);
  const named = (s: string) => others.reduce((t, k) => t.replace(new RegExp(`\\b${k}\\b`, "g"), mid(labels[k]!)), s);
  const said = parts(message, labels).flatMap(({ field, text }) => {
    if (!field) return [text];
    if (seen.has(field)) return [];
    seen.add(field);
    const words = named(PLAIN.reduce((s, [re, plain]) => s.replace(re, plain), text));
    // "must be …" continues the label's sentence; a sentence of its own ("A domain name has no spaces …", "a DKIM
    // selector is …") follows it.
    if (/^[A-Z]/.test(words)) return [`${labels[field]}: ${words}`];
    if (/^(a|an|the) /.test(words)) return [`${labels[field]}: ${words[0]!.toUpperCase()}${words.slice(1)}`];
    return [`${labels[field]} ${words}`];
  });
  return `${said.filter(Boolean).join("; ")}.`;
}
