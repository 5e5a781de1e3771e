// reachability: whether the URL answers (a status below 500 from at least one probe location). Runs POST
// /online-check (hosts.onlineCheck); the run pays for it, so its burst limit does not apply.
import type { OnlineCheckResult } from "../../online-check";
import type { CheckSpec } from "./types";

export const reachabilityCheck: CheckSpec = {
  type: "reachability",
  about: "reachability: the URL answers (the target's URL, else https://host/)",
  needsName: false,
  procedure: "hosts.onlineCheck",
  calls: (t) => [{ url: t.url }],
  state([r]: OnlineCheckResult[]) {
    return { state: { online: r!.online }, severity: r!.online ? "ok" : "critical" };
  },
};
