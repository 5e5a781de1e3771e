// The typosquat check as a scan or report runs it: a near popular name from the shipped list, then (npm) the
// candidate's own weekly downloads for the 100-times rule. The download count is asked only for the rare name that
// is near a popular one, so a 1,000-package lockfile costs no extra upstream calls for its ordinary names.
import { getWeeklyDownloads } from "../providers/packages/npm-downloads";
import { typosquatCandidate, withDownloadEvidence, type TyposquatMatch } from "./typosquat";
import type { Ecosystem } from "./versions";

export async function findTyposquat(eco: Ecosystem, name: string): Promise<TyposquatMatch | null> {
  const match = typosquatCandidate(eco, name);
  if (!match) return null;
  if (eco !== "npm") return withDownloadEvidence(match, null);
  const downloads = await getWeeklyDownloads(name);
  return withDownloadEvidence(match, downloads.kind === "ok" ? downloads.value.weeklyDownloads : null);
}
