// Signal weights: the defaults beside weights learned from the workspace's outcome labels, and the switch between
// them. Unmetered, like rules, and on the same plans (capability `full`: the plans that can call /assess).
import { router } from "../../trpc";
import { getProcedure } from "./get";
import { setModeProcedure } from "./set-mode";

export const weightsRouter = router({
  get: getProcedure,
  setMode: setModeProcedure,
});
