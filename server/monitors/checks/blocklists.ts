// blocklists: the DNS blocklists that list the target (address or name). A list that refused or did not answer
// is not a listing (the blocklist answer's own rule), so it changes nothing. Runs POST /blocklists/check.
import type { BlocklistCheckResult } from "../../blocklists/schemas";
import { sorted, type CheckSpec } from "./types";

export const blocklistsCheck: CheckSpec = {
  type: "blocklists",
  about: "blocklists: the DNS blocklists listing the host or address",
  needsName: false,
  procedure: "blocklists.blocklistsCheck",
  calls: (t) => [{ targets: [t.host] }],
  state([r]: BlocklistCheckResult[]) {
    const listed = sorted(r!.results.flatMap((x) => x.listedOn));
    return { state: { listed_on: listed }, severity: listed.length ? "critical" : "ok" };
  },
};
