// Strict input, for both ways in (REST /v1 and the dashboard): a NUL byte never reaches a schema or the database
// (PostgreSQL refuses it in text, which used to surface as a 500 after a unit was reserved), and control characters
// never hide inside an identifier (an IP with a trailing line feed was trimmed, answered and charged). Free-text
// fields that a procedure declares (rule names, notes, metadata values) may hold tabs and line breaks, never NUL.
// Nor does half of a UTF-16 surrogate pair: JSON may escape one alone ("\udc00"), which is not text (PostgreSQL
// cannot store it, and it used to surface as a 500 after a unit was reserved), in a value or a field name alike.

/**
 * Paths of free-text fields, dot-separated: `name`, `metadata.*` (any key one level down), `report.**` (anything
 * below). Everything else (path and query parameters, ids, cursors, IPs, domains, emails, URLs, keys) is an
 * identifier.
 */
export type FreeTextPaths = readonly string[];

// C0 controls and DEL.
const CONTROL = /[\u0000-\u001f\u007f]/;
// What free text may hold besides printable characters: tab, line feed and carriage return (textareas send CRLF).
const FREE_TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const MAX_DEPTH = 32;

const LONE_SURROGATE_MESSAGE =
  "must be valid Unicode text: it holds half of a UTF-16 surrogate pair (such as \\ud800) without the other half.";

function isFreeText(path: readonly string[], patterns: FreeTextPaths): boolean {
  outer: for (const pattern of patterns) {
    const parts = pattern.split(".");
    for (let i = 0; i < parts.length; i++) {
      if (parts[i] === "**") return true;
      if (i >= path.length) continue outer;
      if (parts[i] !== "*" && parts[i] !== path[i]) continue outer;
    }
    if (parts.length === path.length) return true;
  }
  return false;
}

function describePath(path: readonly string[]): string {
  return path.length ? path.join(".") : "input";
}

/**
 * The first problem with the input's strings, as a message for a 400, or null. Array indexes are skipped in paths
 * (`conditions.value` covers every condition), so a declaration names fields, never positions.
 */
export function screenInput(input: unknown, freeText: FreeTextPaths = []): string | null {
  const visit = (value: unknown, path: string[], depth: number): string | null => {
    if (typeof value === "string") {
      if (value.includes("\u0000")) return `${describePath(path)}: must not contain a NUL character.`;
      const pattern = isFreeText(path, freeText) ? FREE_TEXT_CONTROL : CONTROL;
      if (pattern.test(value)) return `${describePath(path)}: must not contain control characters.`;
      if (LONE_SURROGATE.test(value)) return `${describePath(path)}: ${LONE_SURROGATE_MESSAGE}`;
      return null;
    }
    if (!value || typeof value !== "object" || depth > MAX_DEPTH) return null;
    if (Array.isArray(value)) {
      for (const item of value) {
        const problem = visit(item, path, depth + 1);
        if (problem) return problem;
      }
      return null;
    }
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (CONTROL.test(key)) return `${describePath(path)}: a field name must not contain control characters.`;
      if (LONE_SURROGATE.test(key)) return `${describePath(path)}: a field name ${LONE_SURROGATE_MESSAGE}`;
      const problem = visit(item, [...path, key], depth + 1);
      if (problem) return problem;
    }
    return null;
  };
  return visit(input, [], 0);
}
