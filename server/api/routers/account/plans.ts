// The account router's plans (dashboard only).
// The procedure, with its contract beside its work.
import { PLAN_SLUGS, PLANS } from "../../../plans/catalog";
import { workspaceProcedure } from "../../trpc";

/** The plan catalog (read-only: plans come from the operator or a verified payment, never from this API). */
export const plansProcedure = workspaceProcedure.query(() => PLAN_SLUGS.map((slug) => PLANS[slug]));
