// The typosquat check as a scan or report runs it: a near popular name from the ecosystem's list, then the
// 100-times rule. A list that carries download counts (PyPI's, built at refresh time) decides the rule exactly from
// them; npm's shipped list does not, so npm asks the candidate's own weekly downloads and compares them with the
// list's floor. The download count is asked only for the rare name that is near a popular one, so a 1,000-package
// lockfile costs no extra upstream calls for its ordinary names. A near name that is the popular package's own
// (published by its maintainers, or its maintained fork under another scope) is no squat: ownFork() reads the
// popular package's registry document, again only for those rare names.
import type { Fetched } from "../providers/packages/http";
import { getWeeklyDownloads } from "../providers/packages/npm-downloads";
import type { RegistryPackage } from "../providers/packages/registry-types";
import { popularDownloads, type PopularDownloads } from "./popular-names";
import { popularNamesReady } from "./popular-refresh";
import { lookupRegistry } from "./registry";
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
  return { ...match, evidence: `${match.evidence}; ${note}`, downloadsCompared: true };
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

/** Lower-case accounts behind a package: its maintainers and its versions' publishers, where the registry names them. */
function accountsOf(pkg: RegistryPackage): Set<string> {
  const publishers = Object.values(pkg.versionFacts ?? {}).flatMap((f) => (f.publisher ? [f.publisher] : []));
  return new Set([...(pkg.maintainers ?? []), ...publishers].map((a) => a.toLowerCase()));
}

const repositoryOf = (pkg: RegistryPackage) =>
  pkg.repositoryUrl
    ? `${pkg.repositoryUrl.toLowerCase().replace(/\/+$/, "")}#${(pkg.repositoryDirectory ?? "").toLowerCase()}`
    : null;

/**
 * How the candidate is the imitated package's own, or null: an account that maintains or published the popular
 * package also maintains or published the candidate (whatever the technique); or, for the popular name put under
 * another scope, both name the same source repository and folder while the registry names no maintainers to compare
 * (`@minimistjs/subarg`, the minimist maintainers' maintained fork of subarg). When both sides name maintainers and
 * none is shared, they decide: a repository field is copied in a moment, an account is not.
 */
export async function ownFork(
  eco: Ecosystem,
  candidate: RegistryPackage,
  match: TyposquatMatch,
): Promise<"same_maintainers" | "same_repository" | null> {
  const original = await lookupRegistry(eco, match.of);
  if (original.kind !== "ok") return null; // nothing to compare with: the match stands
  return forkOf(candidate, original.value, match);
}

/** ownFork's comparison, with the popular package's document in hand. */
function forkOf(
  candidate: RegistryPackage,
  original: RegistryPackage,
  match: TyposquatMatch,
): "same_maintainers" | "same_repository" | null {
  const mine = accountsOf(candidate);
  const theirs = accountsOf(original);
  if (mine.size > 0 && theirs.size > 0) return [...mine].some((a) => theirs.has(a)) ? "same_maintainers" : null;
  if (match.technique !== "scope") return null;
  const repository = repositoryOf(candidate);
  return repository !== null && repository === repositoryOf(original) ? "same_repository" : null;
}

/** The match, unless the candidate (its registry document, when read) is the popular package's own fork. */
export async function unlessOwnFork(
  eco: Ecosystem,
  candidate: RegistryPackage | null,
  match: TyposquatMatch | null,
): Promise<TyposquatMatch | null> {
  if (!match || !candidate) return match;
  return (await ownFork(eco, candidate, match)) ? null : match;
}

/**
 * How the typosquat check of one scanned name went: `ok` when it was done (most names are near no popular one and
 * need no upstream), `unavailable` with the reason when it could not be: the popular-name list could not be read, or
 * for a name near a popular one, an upstream it needs did not answer (npm's download count of the name, the
 * name's or the popular package's registry document for the own-fork rule). A near name stays reported then, with
 * what could not be checked; the answer says which packages' check was not done instead of passing it over.
 */
export type TyposquatCheck = { status: "ok" | "unavailable"; reason: string | null };

/**
 * The scan's typosquat check of a name (findTyposquat, then unlessOwnFork), with how it went. `candidate` is the
 * name's own registry answer, already fetched by the scan. Never throws: a failure is the check's status.
 */
export async function checkTyposquat(
  eco: Ecosystem,
  name: string,
  candidate: Fetched<RegistryPackage>,
): Promise<{ match: TyposquatMatch | null; check: TyposquatCheck }> {
  const missing: string[] = [];
  let match: TyposquatMatch | null;
  try {
    await popularNamesReady(eco);
    const near = typosquatCandidate(eco, name);
    if (!near) return { match: null, check: { status: "ok", reason: null } };
    const listed = popularDownloads(eco);
    if (listed) match = withListedDownloads(eco, near, name, listed);
    else if (eco !== "npm") match = withDownloadEvidence(near, null);
    else {
      const downloads = await getWeeklyDownloads(name);
      if (downloads.kind === "unavailable")
        missing.push(`npm's download counts did not answer (${downloads.reason}), so its downloads were not compared`);
      match = withDownloadEvidence(near, downloads.kind === "ok" ? downloads.value.weeklyDownloads : null);
    }
    if (match && candidate.kind !== "not_found") {
      const original = candidate.kind === "ok" ? await lookupRegistry(eco, match.of) : null;
      if (candidate.kind === "unavailable" || original?.kind === "unavailable") {
        const which = candidate.kind === "unavailable" ? "its own" : `${match.of}'s`;
        const why = candidate.kind === "unavailable" ? candidate.reason : (original as { reason: string }).reason;
        missing.push(`${which} registry document did not answer (${why}), so it was not compared with ${match.of}'s`);
      } else if (candidate.kind === "ok" && original?.kind === "ok" && forkOf(candidate.value, original.value, match))
        match = null;
    }
  } catch (err) {
    return {
      match: null,
      check: { status: "unavailable", reason: `the typosquat check failed (${(err as Error).message})` },
    };
  }
  // A name cleared (too downloaded, or the popular package's own fork) was checked, whatever else did not answer.
  if (!match || missing.length === 0) return { match, check: { status: "ok", reason: null } };
  const reason = `its name is near ${match.of} and stays reported, but ${missing.join("; and ")}`;
  return { match, check: { status: "unavailable", reason } };
}
