// Website security scans: POST /scans (full, 1 unit), GET /scans/{id} (unmetered; own workspace, or anyone for a
// public or unlisted scan), GET /scans?host= (the workspace's history of a host), GET /scans/hosts (the hosts it has
// scanned, with their latest scan) and GET /scans/leaderboard.
import { router } from "../../trpc";
import { createProcedure } from "./create";
import { leaderboardProcedure } from "./leaderboard";
import { hostsProcedure } from "./hosts";
import { getProcedure } from "./get";
import { listProcedure } from "./list";

export const scansRouter = router({
  create: createProcedure,
  leaderboard: leaderboardProcedure,
  hosts: hostsProcedure,
  get: getProcedure,
  list: listProcedure,
});
