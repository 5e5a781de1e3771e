// What a project and a ref may be called (and the ref a scan is filed under when it names none): the one rule, read by the service (server/projects/names.ts, for
// POST /v1/vulnerabilities/scan?project= and the project monitor's target), the dashboard's scan form and this
// command. It lives in the command's own source because the command is packed and installed alone (npm pack in
// clients/cli ships only what tsc builds from src/ into dist/): a rule kept in the service's folders would not be in
// the tarball. So this module imports nothing.

/** The ref a scan is filed under when the request names none, and the one diffs are taken against. */
export const DEFAULT_REF = "default";

/** The characters and length of a ref (a branch or commit label). */
export const NAME_CHARACTERS = /^[A-Za-z0-9._/-]{1,100}$/;

/**
 * The longest project name: 140, so that a GitHub repository's full name (`$GITHUB_REPOSITORY`: an owner of up to 39
 * characters, "/", a repository name of up to 100), which the CI snippets pass as --project, is always one.
 */
export const PROJECT_NAME_MAX = 140;

/** PROJECT_NAME's characters and parts at any length: a name that has them and is too long is told so. */
export const PROJECT_NAME_PARTS_RULE = /^\.*[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/\.*[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/**
 * A project's name: 1 to PROJECT_NAME_MAX of NAME_CHARACTERS' characters in parts separated by single slashes, none empty and none made only of dots.
 * The name must stay addressable as /v1/projects/{name}: a part "." or ".." (written `..` or `%2E%2E`) is removed or
 * refused by URL normalisation before any route sees it, and an empty part (`acme//web`, `acme/web/`, `/`) is not a
 * name anyone means; a project stored under such a name could never be read, exported or deleted.
 */
export const PROJECT_NAME = new RegExp(`^(?=.{1,${PROJECT_NAME_MAX}}$)${PROJECT_NAME_PARTS_RULE.source.slice(1)}`);

/** How the parts of a name are put together, in words. */
export const PROJECT_NAME_PARTS = "in parts separated by single slashes, none empty and none only dots";

/** The project name rule in words, for messages and the OpenAPI document. */
export const PROJECT_NAME_RULE = `1 to ${PROJECT_NAME_MAX} letters, digits and . _ / - (e.g. acme/web), ${PROJECT_NAME_PARTS} (not \`.\`, \`..\`, \`acme/..\`, \`acme//web\` or \`acme/web/\`)`;
