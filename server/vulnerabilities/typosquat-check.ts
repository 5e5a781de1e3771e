// The typosquat check as a scan or report runs it: a near popular name from the ecosystem's list, then the
// 100-times rule. A list that carries download counts (PyPI's, built at refresh time) decides the rule exactly from
// them; npm's shipped list does not, so npm asks the candidate's own weekly downloads and compares them with the
// list's floor. The download count is asked only for the rare name that is near a popular one, so a 1,000-package
// lockfile costs no extra upstream calls for its ordinary names.
import { getWeeklyDownloads } from "../providers/packages/npm-downloads";
import { popularDownloads, type PopularDownloads } from "./popular-names";
import { popularNamesReady } from "./popular-refresh";
import { typosquatCandidate, withDownloadEvidence, type TyposquatMatch } from "./typosquat";
import { OSV_ECOSYSTEM, type Ecosystem } from "./versions/ecosystems";

const SQUAT_RATIO = 100;
const count = (n: number) => n.toLocaleString("en-US");

/**
 * The 100-times rule from the list's own counts: the popular project must have at least 100 times the candidate's
 * downloads. The candidate's count is the list's when it is listed; otherwise it is not among the most downloaded,
 * so it had no more than the list's least downloaded project, and that bound is what is compared. Null when the
 * rule is not met (or cannot be shown to be).
 */
export function withListedDownloads(
  eco: Ecosystem,
  match: TyposquatMatch,
  name: string,
  downloads: PopularDownloads,
): TyposquatMatch | null {
  const popular = downloads.counts[match.popularRank - 1];
  if (popular === undefined) return null;
  const own = downloads.countOf(name);
  const bound = own ?? downloads.floor;
  if (!(popular >= SQUAT_RATIO * bound)) return null;
  const period = `in the 30 days to ${downloads.date.slice(0, 10)}`;
  const theirs = `'${match.of}' had ${count(popular)}`;
  const note =
    own === null
      ? `'${name}' is not among the ${count(downloads.counts.length)} most downloaded ${OSV_ECOSYSTEM[eco]} projects, so ` +
        `it had at most ` +
        `${count(downloads.floor)} downloads ${period} while ${theirs}, over 100 times more`
      : `it had ${count(own)} downloads ${period} while ${theirs}, ` +
        `${own === 0 ? "over 100" : Math.floor(popular / own).toLocaleString("en-US")} times more`;
  return { ...match, evidence: `${match.evidence}; ${note}` };
}

/**
 * The popular package `name` imitates, with the download evidence, or null. `weeklyDownloads` (npm) is the
 * candidate's count when the caller already has it (the package report); without it npm's count is asked.
 */
export async function findTyposquat(
  eco: Ecosystem,
  name: string,
  opts: { weeklyDownloads?: number | null } = {},
): Promise<TyposquatMatch | null> {
  await popularNamesReady(eco);
  const match = typosquatCandidate(eco, name);
  if (!match) return null;
  const listed = popularDownloads(eco);
  if (listed) return withListedDownloads(eco, match, name, listed);
  if (eco !== "npm") return withDownloadEvidence(match, null);
  if (opts.weeklyDownloads !== undefined) return withDownloadEvidence(match, opts.weeklyDownloads);
  const downloads = await getWeeklyDownloads(name);
  return withDownloadEvidence(match, downloads.kind === "ok" ? downloads.value.weeklyDownloads : null);
}
