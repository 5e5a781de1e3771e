// A list's name is how rules call it (`in_list("blocked_emails", …)`): lower-case letters, digits and _ only
// (LIST_NAME_PATTERN, server/lists/values.ts). The form writes what is typed that way as it is typed: capitals in
// lower case, spaces and hyphens as _, so "Blocked countries" becomes blocked_countries instead of a refusal from the
// browser's format check; any other character is left for that check to point at.
export function listNameAsTyped(value: string): string {
  return value.trimStart().toLowerCase().replace(/[\s-]/g, "_");
}
