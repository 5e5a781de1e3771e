// The shape of a bulk job as the dashboard reads it (jobs.get, the same as GET /v1/jobs/{id}): read once without
// items for its progress and once with them for its results, and passed to the job's progress and results views.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/api/root";

export type JobRead = inferRouterOutputs<AppRouter>["jobs"]["get"];
