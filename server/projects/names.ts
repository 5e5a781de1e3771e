// What a project and a ref may be called. A project names a repository or an app (`acme/web`), a ref a branch or a
// commit label (`main`, `pr-42`, `3f2a9c1`); both travel in query strings and, for a project, in a path segment of
// /v1/projects/{name} where its slashes are written %2F (acme%2Fweb): an unencoded slash would be a new segment.
import { z } from "zod";

/** The characters and length of a project's name and of a ref. */
const NAME_CHARACTERS = /^[A-Za-z0-9._/-]{1,100}$/;

/**
 * A project's name: NAME_CHARACTERS in parts separated by single slashes, none empty and none made only of dots.
 * The name must stay addressable as /v1/projects/{name}: a part "." or ".." (written `..` or `%2E%2E`) is removed or
 * refused by URL normalisation before any route sees it, and an empty part (`acme//web`, `acme/web/`, `/`) is not a
 * name anyone means; a project stored under such a name could never be read, exported or deleted.
 */
export const PROJECT_NAME = /^(?=.{1,100}$)\.*[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/\.*[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** The ref a scan is filed under when the request names none, and the one diffs are taken against. */
export const DEFAULT_REF = "default";

/** The project name rule in words, for messages and the OpenAPI document. */
export const PROJECT_NAME_RULE =
  "1 to 100 letters, digits and . _ / - (e.g. acme/web), in parts separated by single slashes, none empty and none only dots (not `.`, `..`, `acme/..`, `acme//web` or `acme/web/`)";

export const projectNameSchema = z
  .string()
  .trim()
  .regex(PROJECT_NAME, `must be ${PROJECT_NAME_RULE}`)
  .describe(`The project's name, ${PROJECT_NAME_RULE}; in a path, its slashes are written %2F (acme%2Fweb)`);

export const refSchema = z
  .string()
  .trim()
  .regex(NAME_CHARACTERS, "must be 1 to 100 letters, digits and . _ / - (a branch or commit label)");
