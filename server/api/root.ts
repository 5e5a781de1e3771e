// Every router of the service. Procedures with OpenAPI meta are also served under /v1 by the REST door.
import { accountRouter } from "./routers/account";
import { geoRouter } from "./routers/geo";
import { workspaceReadsRouter } from "./routers/workspace-reads";
import { router } from "./trpc";

export const appRouter = router({
  account: accountRouter,
  geo: geoRouter,
  workspace: workspaceReadsRouter,
});

export type AppRouter = typeof appRouter;
