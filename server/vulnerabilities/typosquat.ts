// Typosquat detection (issue 25, item 5): is a package name one keystroke, a swapped or doubled letter, a separator
// or scope change, or a look-alike character away from a popular name of its ecosystem? Pure: the popular lists
// come from popular-names.ts and are indexed once, so a 1,000-package scan costs a few map lookups per name.
import { OSV_ECOSYSTEM, type Ecosystem } from "./versions/ecosystems";
import { popularNames } from "./popular-names";
import { processWide } from "../process-wide";

export type TyposquatMatch = {
  of: string;
  technique: "edit" | "swap" | "double" | "separator" | "scope" | "homoglyph";
  popularRank: number;
  evidence: string;
  /**
   * The 100-times download rule was checked against real counts. False (or absent: a bare name match) when the
   * candidate's downloads could not be read: the match is still reported, as an unconfirmed one that weighs little.
   */
  downloadsCompared?: boolean;
};

type Technique = TyposquatMatch["technique"];

// Most specific first: when two techniques reach the same popular name, the evidence names the clearer one.
const ORDER: Technique[] = ["scope", "homoglyph", "separator", "double", "swap", "edit"];

// A name of 3 characters or fewer has dozens of one-edit neighbours that are real, unrelated packages (ms, qs, ws,
// nx, pg...), so short names are compared only by look-alike characters and scope, never by edit, swap, double or
// separator. The rule applies to both the candidate and the popular name.
const SHORT = 3;

// Each pair is a look-alike and the Latin letter it imitates: Cyrillic (а в е һ і ј к ӏ м о р ԛ ѕ т у х с ԁ ԝ) and
// Greek (ν ο ρ α) letters, then the digits and marks read as l or o. i (Latin or Cyrillic) folds to l: l/1/i are one.
const CONFUSABLES = new Map(
  "аa вb еe һh іl јj кk ӏl мm оo рp ԛq ѕs тt уy хx сc ԁd ԝw νv οo ρp αa 1l il |l !l 0o"
    .split(" ")
    .map((pair) => [pair[0], pair[1]] as const),
);

/** The name as it looks: look-alike characters and the pairs rn/m and vv/w folded to one form. */
export function skeleton(name: string): string {
  const folded = [...name.toLowerCase()].map((ch) => CONFUSABLES.get(ch) ?? ch).join("");
  return folded.replaceAll("rn", "m").replaceAll("vv", "w");
}

const stripSeparators = (name: string): string => name.replace(/[-_.]/g, "");

function scopeOf(name: string): { scope: string | null; bare: string } {
  const m = /^@([^/]+)\/(.+)$/.exec(name);
  return m ? { scope: m[1], bare: m[2] } : { scope: null, bare: name };
}

// PyPI treats runs of -, _ and . as the same name (PEP 503), so there a separator change is the same package.
function normalise(eco: Ecosystem, name: string): string {
  const lower = name.trim().toLowerCase();
  return eco === "pypi" ? lower.replace(/[-_.]+/g, "-") : lower;
}

type PopularIndex = {
  names: readonly string[];
  rank: Map<string, number>;
  /**
   * Symmetric-delete index: every one-character deletion of every popular name, to the rank it came from, or the
   * ranks when several share it (most keys have one: a plain number saves an array per key, a third of the build).
   */
  deletions: Map<string, number | number[]>;
  stripped: Map<string, number>;
  skeletons: Map<string, number>;
  /** Scopes that own a popular package: an established publisher, whose other packages are not squats. */
  popularScopes: Set<string>;
};

// One index per ecosystem and process, built at start-up and used by every bundle (server/process-wide.ts).
const indexes = processWide("typosquat-indexes", () => new Map<Ecosystem, PopularIndex>());
let verifications = 0;

function firstWins(map: Map<string, number>, key: string, rank: number) {
  if (!map.has(key)) map.set(key, rank);
}

function buildIndex(eco: Ecosystem): PopularIndex {
  const idx: PopularIndex = {
    names: popularNames(eco),
    rank: new Map(),
    deletions: new Map(),
    stripped: new Map(),
    skeletons: new Map(),
    popularScopes: new Set(),
  };
  idx.names.forEach((original, i) => {
    const name = normalise(eco, original);
    const rank = i + 1;
    firstWins(idx.rank, name, rank);
    firstWins(idx.skeletons, skeleton(name), rank);
    const { scope } = scopeOf(name);
    if (scope) idx.popularScopes.add(scope);
    if (name.length <= SHORT) return;
    firstWins(idx.stripped, stripSeparators(name), rank);
    for (const d of deletionsOf(name)) {
      const held = idx.deletions.get(d);
      if (held === undefined) idx.deletions.set(d, rank);
      else if (typeof held === "number") {
        if (held !== rank) idx.deletions.set(d, [held, rank]);
      } else if (held[held.length - 1] !== rank) held.push(rank);
    }
  });
  return idx;
}

function indexFor(eco: Ecosystem): PopularIndex {
  let idx = indexes.get(eco);
  if (!idx) {
    idx = buildIndex(eco);
    indexes.set(eco, idx);
  }
  return idx;
}

/** Drops the ecosystem's index, so the next check builds it from the list now in use (after a refresh). */
export function forgetTyposquatIndex(eco: Ecosystem): void {
  indexes.delete(eco);
}

/** Builds every shipped list's index now (start-up), so no request pays the half second it takes. */
export function warmTyposquatIndexes(): void {
  for (const eco of Object.keys(OSV_ECOSYSTEM) as Ecosystem[]) indexFor(eco);
}

/** How the index is used, for tests: names indexed and the one-edit verifications made since the process began. */
export function typosquatIndexStats(eco: Ecosystem): { names: number; deletionKeys: number; verifications: number } {
  const idx = indexFor(eco);
  return { names: idx.names.length, deletionKeys: idx.deletions.size, verifications };
}

/** Every distinct one-character deletion of s (deleting either letter of a doubled pair gives the same string). */
function deletionsOf(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) if (i === 0 || s[i] !== s[i - 1]) out.push(s.slice(0, i) + s.slice(i + 1));
  return out;
}

/** "adds", "drops" or "changes" when `a` is one insert, delete or substitute from `b`; null otherwise. */
function oneEdit(a: string, b: string): "adds" | "drops" | "changes" | null {
  verifications++;
  if (Math.abs(a.length - b.length) > 1 || a === b) return null;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1) ? "changes" : null;
  if (a.length > b.length) return a.slice(i + 1) === b.slice(i) ? "adds" : null;
  return a.slice(i) === b.slice(i + 1) ? "drops" : null;
}

type Hit = { rank: number; technique: Technique; how: string };

function findHits(eco: Ecosystem, idx: PopularIndex, name: string): Hit[] {
  const hits: Hit[] = [];
  const { scope, bare } = scopeOf(name);
  const add = (rank: number | undefined, technique: Technique, how: string) => {
    if (rank === undefined) return;
    const of = normalise(eco, idx.names[rank - 1]);
    if (technique !== "scope" && technique !== "homoglyph" && of.length <= SHORT) return;
    // A scope belongs to one npm account or organisation: a name beside a popular one in the same scope was
    // published by the same owner (@aws-sdk/client-ses beside @aws-sdk/client-sts), so it cannot be a squat.
    if (technique !== "scope" && scope && scope === scopeOf(of).scope) return;
    hits.push({ rank, technique, how });
  };

  // @types/x is DefinitelyTyped's declarations for x, and a scope that owns a popular package is an established
  // publisher whose @scope/x is an integration with x (@sentry/vue), not an imitation of it.
  if (scope && scope !== "types" && !idx.popularScopes.has(scope)) {
    add(idx.rank.get(bare), "scope", `under the scope '@${scope}'`);
  }

  add(idx.skeletons.get(skeleton(name)), "homoglyph", "writes");
  if (name.length <= SHORT) return hits;

  add(idx.stripped.get(stripSeparators(name)), "separator", "changes the separators of");
  for (let i = 0; i < name.length; i++) {
    if (name[i] === name[i + 1])
      add(idx.rank.get(name.slice(0, i) + name.slice(i + 1)), "double", "doubles a letter of");
    else add(idx.rank.get(name.slice(0, i + 1) + name.slice(i)), "double", "drops a doubled letter of");
    if (i + 1 < name.length && name[i] !== name[i + 1]) {
      const swapped = name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
      add(idx.rank.get(swapped), "swap", "swaps two letters of");
    }
  }

  const probe = (rank: number) => {
    const kind = oneEdit(name, normalise(eco, idx.names[rank - 1]));
    if (kind) add(rank, "edit", `${kind} one letter ${kind === "adds" ? "to" : "of"}`);
  };
  const ranksOf = (key: string): readonly number[] => {
    const held = idx.deletions.get(key);
    return held === undefined ? [] : typeof held === "number" ? [held] : held;
  };
  for (const rank of ranksOf(name)) probe(rank);
  for (const d of deletionsOf(name)) {
    const exact = idx.rank.get(d);
    if (exact !== undefined) probe(exact);
    for (const rank of ranksOf(d)) probe(rank);
  }
  return hits;
}

/**
 * The popular package `name` imitates, or null. Names that are themselves popular are never squats. When several
 * popular names are near, the most downloaded one is named (then the most specific technique).
 */
export function typosquatCandidate(eco: Ecosystem, name: string): TyposquatMatch | null {
  const idx = indexFor(eco);
  if (idx.names.length === 0) return null;
  const normalised = normalise(eco, name);
  if (!normalised || idx.rank.has(normalised)) return null;
  const hits = findHits(eco, idx, normalised);
  if (hits.length === 0) return null;
  hits.sort((a, b) => a.rank - b.rank || ORDER.indexOf(a.technique) - ORDER.indexOf(b.technique));
  const best = hits[0];
  const of = idx.names[best.rank - 1];
  const how =
    best.technique === "homoglyph"
      ? `writes '${of}' with look-alike characters`
      : best.technique === "scope"
        ? `puts '${of}' ${best.how}`
        : `${best.how} '${of}'`;
  return {
    of,
    technique: best.technique,
    popularRank: best.rank,
    evidence: `'${name}' ${how}, one of the most downloaded ${OSV_ECOSYSTEM[eco]} packages (rank ${best.rank})`,
  };
}

// The rule: a squat imitates a package "at least 100 times more downloaded". The shipped npm list is
// npm-high-impact's npmTopDownloads, whose every name has at least 1,000,000 downloads a week, so whatever its rank
// a popular package has at least this many, and a candidate under a hundredth of it is 100 times less downloaded.
// The list does not carry each package's own count, so rank cannot raise the floor; a higher rank only means more.
export const POPULAR_WEEKLY_DOWNLOADS_FLOOR = 1_000_000;
const SQUAT_WEEKLY_DOWNLOADS_CEILING = POPULAR_WEEKLY_DOWNLOADS_FLOOR / 100;

/**
 * Whether the candidate is at least 100 times less downloaded than the popular package at `popularRank`. Unknown
 * downloads (registry down, no count published) count as met, so a squat is never hidden by a missing number;
 * `withDownloadEvidence` then says the count was unknown.
 */
export function meetsDownloadRule(candidateWeekly: number | null, popularRank: number): boolean {
  // A rank outside the list names no popular package, so nothing is known to be 100 times more downloaded.
  if (!Number.isInteger(popularRank) || popularRank < 1) return false;
  if (candidateWeekly === null || !Number.isFinite(candidateWeekly)) return true;
  return candidateWeekly < SQUAT_WEEKLY_DOWNLOADS_CEILING;
}

/** The match with its evidence completed by the download rule, or null when the candidate is too downloaded. */
export function withDownloadEvidence(match: TyposquatMatch, candidateWeekly: number | null): TyposquatMatch | null {
  if (!meetsDownloadRule(candidateWeekly, match.popularRank)) return null;
  const floor = POPULAR_WEEKLY_DOWNLOADS_FLOOR.toLocaleString("en-US");
  const compared = candidateWeekly !== null && Number.isFinite(candidateWeekly);
  const note = !compared
    ? `its own weekly downloads were unknown, so it was not checked to be 100 times less downloaded`
    : `it has ${candidateWeekly.toLocaleString("en-US")} weekly downloads, over 100 times fewer than the ` +
      `${floor} a week every listed package has`;
  return { ...match, evidence: `${match.evidence}; ${note}`, downloadsCompared: compared };
}
