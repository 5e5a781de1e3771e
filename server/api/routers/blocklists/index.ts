// The blocklists router: its procedures, one file each.
import { router } from "../../trpc";
import { blocklistsCheckProcedure } from "./blocklists-check";

export { MAX_BLOCKLIST_TARGETS } from "./shared";

export const blocklistsRouter = router({
  blocklistsCheck: blocklistsCheckProcedure,
});
