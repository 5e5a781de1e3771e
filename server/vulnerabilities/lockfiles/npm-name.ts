// Whether npm could ever have published a name: the rules validate-npm-package-name applies to every package,
// existing ones included (its `validForOldPackages`). Capitals, more than 214 characters and core-module names are
// only refused for new packages, so old ones that have them (JSONStream) still pass. A lockfile entry that fails
// cannot have come from the registry (the file was edited, or the entry points elsewhere): it is skipped with the
// reason, not looked up and not charged.

/** Names npm refuses outright. */
const REFUSED = new Set(["node_modules", "favicon.ico"]);

/** Left as it is by encodeURIComponent (which throws on a lone surrogate: not URL-safe either). */
function urlSafe(s: string): boolean {
  try {
    return s.length > 0 && encodeURIComponent(s) === s;
  } catch {
    return false;
  }
}

/** Why npm could never have published `name`, or null when it could. */
export function npmNameProblem(name: string): string | null {
  if (name.length === 0) return "an npm package name cannot be empty";
  if (name.trim() !== name) return "an npm package name cannot start or end with a space";
  if (name.startsWith(".") || name.startsWith("_"))
    return "an npm package name cannot start with a period or an underscore";
  if (REFUSED.has(name.toLowerCase())) return `"${name}" is not allowed as an npm package name`;
  if (urlSafe(name)) return null;
  // Scoped: @scope/name, each part URL-safe on its own.
  const scoped = /^@([^/]+)\/([^/]+)$/.exec(name);
  if (scoped && urlSafe(scoped[1]!) && urlSafe(scoped[2]!)) return null;
  return "not an npm package name: npm names hold only URL-safe characters (letters, digits and - . _ ~ ! ' ( ) *), as name or @scope/name";
}
