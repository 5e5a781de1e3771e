// What several procedures of the cases router share (schemas, helpers), or what other modules import from it.
import { authenticated } from "../../trpc";

export const casesProcedure = authenticated.meta({
  requires: { capability: "full", subject: "The review queue needs" },
  freeText: ["note"],
});

export const TAGS = ["Cases"];

export const ABOUT =
  "Every assessment whose final decision is `review` or `challenge` opens a case in the assessment's own write.";
