// What a project and a ref may be called. A project names a repository or an app (`acme/web`), a ref a branch or a
// commit label (`main`, `pr-42`, `3f2a9c1`); both travel in query strings and, for a project, in a path segment of
// /v1/projects/{name} where its slashes are written %2F (acme%2Fweb): an unencoded slash would be a new segment.
import { z } from "zod";

export const PROJECT_NAME = /^[A-Za-z0-9._/-]{1,100}$/;
/** The ref a scan is filed under when the request names none, and the one diffs are taken against. */
export const DEFAULT_REF = "default";

const NAME_RULE = "1 to 100 letters, digits and . _ / - (e.g. acme/web)";

export const projectNameSchema = z
  .string()
  .trim()
  .regex(PROJECT_NAME, `must be ${NAME_RULE}`)
  .describe(`The project's name, ${NAME_RULE}; in a path, its slashes are written %2F (acme%2Fweb)`);

export const refSchema = z
  .string()
  .trim()
  .regex(PROJECT_NAME, `must be ${NAME_RULE.replace(" (e.g. acme/web)", "")} (a branch or commit label)`);
