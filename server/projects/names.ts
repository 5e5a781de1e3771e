// What a project and a ref may be called. A project names a repository or an app (`acme/web`), a ref a branch or a
// commit label (`main`, `pr-42`, `3f2a9c1`); both travel in query strings and, for a project, in a path segment of
// /v1/projects/{name} where its slashes are written %2F (acme%2Fweb): an unencoded slash would be a new segment.
// The rule itself is in clients/cli/src/project-name.ts, the command's own source, which must build and install alone;
// the service, the dashboard and the command read the same one.
import { z } from "zod";
import { DEFAULT_REF, NAME_CHARACTERS, PROJECT_NAME, PROJECT_NAME_RULE } from "../../clients/cli/src/project-name";

export { DEFAULT_REF, PROJECT_NAME, PROJECT_NAME_RULE };

export const projectNameSchema = z
  .string()
  .trim()
  .regex(PROJECT_NAME, `must be ${PROJECT_NAME_RULE}`)
  .describe(`The project's name, ${PROJECT_NAME_RULE}; in a path, its slashes are written %2F (acme%2Fweb)`);

export const refSchema = z
  .string()
  .trim()
  .regex(NAME_CHARACTERS, "must be 1 to 100 letters, digits and . _ / - (a branch or commit label)");
