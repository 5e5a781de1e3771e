// Lookup answers sometimes carry text written for the operator who runs the service ("an operator fills it with
// `feeds refresh --feed tor-exits`", "(no BIN table is shipped)": what the install ships). A user can do nothing with
// it, so the dashboard shows the sentence without that clause, or drops the sentence when nothing else is left.
const OPERATOR_COMMAND =
  /`[^`]*(?:feeds (?:refresh|status)|npm run admin|admin -- |plan set|secrets rotate)[^`]*`|\bno BIN table is shipped\b/;

function withoutOperatorClause(sentence: string): string {
  if (!OPERATOR_COMMAND.test(sentence)) return sentence;
  let s = sentence.replace(/\s*\([^()]*\)/g, (m) => (OPERATOR_COMMAND.test(m) ? "" : m));
  s = s.replace(/\s*[;,—–]\s*[^;,—–]*$/, (m) => (OPERATOR_COMMAND.test(m) ? "." : m));
  s = s.replace(/\.\.$/, ".");
  return OPERATOR_COMMAND.test(s) ? "" : s;
}

export function forUsers(text: string): string {
  if (!OPERATOR_COMMAND.test(text)) return text;
  return text
    .split(/(?<=[.!?])\s+/)
    .map(withoutOperatorClause)
    .filter(Boolean)
    .join(" ")
    .trim();
}

/** The same, through any JSON value: every string inside it is cleaned. */
export function forUsersDeep(value: unknown): unknown {
  if (typeof value === "string") return forUsers(value);
  if (Array.isArray(value)) return value.map(forUsersDeep);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forUsersDeep(v)]));
  return value;
}
