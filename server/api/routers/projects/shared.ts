// What the procedures of the projects router share: who may call (any key or member of a plan with vulnerability
// lookups; reads are unmetered), the tag, the paging fields and the sentence about names in paths.
import { z } from "zod";
import { authenticated } from "../../trpc";
import { projectNameSchema } from "../../../projects/names";

export const projectsProcedure = authenticated.meta({
  requires: { capability: "vulnerabilities", subject: "Projects need" },
});

export const TAGS = ["Projects"];

export const NAME_IN_PATH =
  "`{name}` is the project's name with its slashes percent-encoded: acme/web is /v1/projects/acme%2Fweb (an unencoded slash starts another path segment and is 404). Another workspace's project is 404 NOT_FOUND, as one that does not exist.";

export const nameParam = { name: projectNameSchema };

export const page = {
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Page size, 1 to 200 (default 50)"),
  cursor: z.string().max(300).optional().describe("The previous page's next_cursor"),
};
