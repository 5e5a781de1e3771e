// Supply-chain findings for one package version, from its registry document and the typosquat check: what
// advisories miss. Install-time code, a release younger than 72 hours, a deprecated or yanked version, a package
// whose latest release is over two years old, a version published by an account that published none of the
// earlier ones, a repository link that is missing or names another project, and a name that imitates a popular
// package. Each finding carries the registry facts it rests on, so a reader can check it.
import type { RegistryPackage, RepositoryLink } from "../providers/packages/registry-types";
import type { Severity } from "./severity";
import type { TyposquatMatch } from "./typosquat";
import { compareVersions, sortVersions, type Ecosystem } from "./versions";

export type SupplyChainKind =
  | "typosquat"
  | "install_script"
  | "fresh_release"
  | "new_publisher"
  | "yanked"
  | "deprecated"
  | "unmaintained"
  | "repository_missing"
  | "repository_mismatch";

export type SupplyChainFinding = {
  kind: SupplyChainKind;
  severity: Severity;
  reason: string;
  evidence: Record<string, unknown>;
};

export const FRESH_RELEASE_HOURS = 72;
export const UNMAINTAINED_DAYS = 730;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * What a registry document says whatever version is asked, derived on first use and kept beside the parsed document.
 * The upstream cache keeps one object per document version (a 304 keeps it, a changed document is a new object:
 * server/providers/packages/http.ts), so a WeakMap keyed by it is keyed by the document's identity and version, and a
 * repeated scan derives nothing again.
 */
type DocumentFacts = {
  /** The newest publication time of any version (ms), -Infinity when the registry tells none. */
  newestPublishedMs: number;
  /** That time as the registry wrote it, null when it tells none. */
  newestPublished: string | null;
  /** npm: the versions whose publisher published none of the earlier versions; built on first use, in one pass. */
  newPublisher: Set<string> | null;
  /** npm: the new-publisher finding of each such version, once asked. */
  publisherFindings: Map<string, SupplyChainFinding[]>;
  /** The repository link's findings, by link (`url#directory`, "" for none): versions can link different ones. */
  repository: Map<string, SupplyChainFinding[]>;
  /** Each version's facts once asked, by ecosystem and version (versionDerived). */
  versions: Map<string, VersionDerived>;
};

/** One version's findings that do not depend on the time, and its publication time. */
type VersionDerived = {
  install: SupplyChainFinding[];
  lifecycle: SupplyChainFinding[];
  published: string | undefined;
  publishedMs: number;
};

const derived = new WeakMap<RegistryPackage, DocumentFacts>();

function documentFacts(pkg: RegistryPackage): DocumentFacts {
  let facts = derived.get(pkg);
  if (!facts) {
    let newest = -Infinity;
    let newestText: string | null = null;
    for (const t of Object.values(pkg.publishedAt)) {
      const ms = Date.parse(t);
      if (ms > newest) [newest, newestText] = [ms, t];
    }
    facts = {
      newestPublishedMs: newest,
      newestPublished: newestText,
      newPublisher: null,
      publisherFindings: new Map(),
      repository: new Map(),
      versions: new Map(),
    };
    derived.set(pkg, facts);
  }
  return facts;
}

const firstLine = (script: string) => script.split(/\r?\n/)[0]!.trim().slice(0, 200);

function installFindings(eco: Ecosystem, pkg: RegistryPackage, version: string): SupplyChainFinding[] {
  const facts = pkg.versionFacts?.[version];
  if (!facts) return [];
  const out: SupplyChainFinding[] = [];
  if (eco === "npm" && (facts.installScripts?.length || facts.gypfile)) {
    const scripts = facts.installScripts ?? [];
    const named = scripts.map((s) => `${s.hook}: ${firstLine(s.script)}`);
    if (facts.gypfile && !scripts.some((s) => s.hook === "install")) named.push("binding.gyp: node-gyp rebuild");
    out.push({
      kind: "install_script",
      severity: "moderate",
      reason: `Runs code on npm install (${named.join("; ")})`,
      evidence: {
        scripts: scripts.map((s) => ({ hook: s.hook, firstLine: firstLine(s.script) })),
        gypfile: facts.gypfile === true,
      },
    });
  }
  if (eco === "pypi" && facts.sourceOnly) {
    out.push({
      kind: "install_script",
      severity: "low",
      reason: "No wheel for this release: pip builds it from source, running its setup.py on install",
      evidence: { wheel: false },
    });
  }
  if (eco === "composer" && facts.composerPlugin) {
    out.push({
      kind: "install_script",
      severity: "moderate",
      reason: "A Composer plugin: Composer runs its code during install and update",
      evidence: { type: "composer-plugin" },
    });
  }
  return out;
}

/** A version's deprecation or yanking: facts of the document version, derived once (versionDerived). */
function lifecycleFindings(pkg: RegistryPackage, version: string): SupplyChainFinding[] {
  const out: SupplyChainFinding[] = [];
  const facts = pkg.versionFacts?.[version];
  if (facts?.deprecated) {
    out.push({
      kind: "deprecated",
      severity: "low",
      reason: `Deprecated by its maintainers: ${facts.deprecated}`,
      evidence: { message: facts.deprecated },
    });
  }
  if (facts?.yanked) {
    out.push({
      kind: "yanked",
      severity: "moderate",
      reason: facts.yanked.reason
        ? `Yanked from PyPI by its maintainers: ${facts.yanked.reason}`
        : "Yanked from PyPI by its maintainers (no reason given)",
      evidence: { reason: facts.yanked.reason || null },
    });
  }
  return out;
}

/** The release's age (fresh), its lifecycle, and the package's last release (unmaintained), as of `now`. */
function releaseFindings(pkg: RegistryPackage, derivedFacts: VersionDerived, now: Date): SupplyChainFinding[] {
  const out: SupplyChainFinding[] = [];
  const { published, publishedMs } = derivedFacts;
  const ageMs = now.getTime() - publishedMs;
  if (Number.isFinite(ageMs) && ageMs >= 0 && ageMs < FRESH_RELEASE_HOURS * HOUR_MS) {
    const hours = Math.max(1, Math.floor(ageMs / HOUR_MS));
    out.push({
      kind: "fresh_release",
      severity: "moderate",
      reason: `Published ${hours} hour${hours === 1 ? "" : "s"} ago (under ${FRESH_RELEASE_HOURS} hours): too new for the community to have noticed a bad release`,
      evidence: { publishedAt: published, ageHours: hours },
    });
  }
  out.push(...derivedFacts.lifecycle);
  const { newestPublishedMs: newest, newestPublished } = documentFacts(pkg);
  if (Number.isFinite(newest) && now.getTime() - newest > UNMAINTAINED_DAYS * DAY_MS) {
    const years = Math.floor((now.getTime() - newest) / (365 * DAY_MS));
    // The registry's own date, as it gave it: a mirror may date a document by when it copied it, so the reader sees
    // whose date it is and can check it.
    const day = /^\d{4}-\d{2}-\d{2}/.exec(newestPublished ?? "")?.[0] ?? new Date(newest).toISOString().slice(0, 10);
    out.push({
      kind: "unmaintained",
      severity: "low",
      reason: `No release for ${years} years: the registry dates the latest release ${day}`,
      // The evidence keeps the API's one time format (UTC, milliseconds); the sentence keeps the registry's own day.
      evidence: { latestReleaseAt: new Date(newest).toISOString() },
    });
  }
  return out;
}

/** What one version of a document says whatever the time: derived on the first scan of it, then kept. */
function versionDerived(eco: Ecosystem, pkg: RegistryPackage, version: string): VersionDerived {
  const doc = documentFacts(pkg);
  const key = `${eco}\u0000${version}`;
  let found = doc.versions.get(key);
  if (!found) {
    const published = pkg.publishedAt[version];
    found = {
      install: installFindings(eco, pkg, version),
      lifecycle: lifecycleFindings(pkg, version),
      published,
      publishedMs: published ? Date.parse(published) : Number.NaN,
    };
    doc.versions.set(key, found);
  }
  return found;
}

/**
 * npm: the versions published by an account that published none of the earlier versions (those whose publisher is
 * known), in one pass over the versions in order: each group of equal versions is judged against the publishers of
 * the groups before it. Versions the ecosystem's order cannot read are no evidence either way.
 */
function newPublisherVersions(eco: Ecosystem, pkg: RegistryPackage): Set<string> {
  const out = new Set<string>();
  const facts = pkg.versionFacts ?? {};
  const ordered = sortVersions(eco, pkg.versions);
  const seen = new Set<string>();
  for (let i = 0; i < ordered.length;) {
    let end = i + 1;
    while (end < ordered.length && compareVersions(eco, ordered[i]!, ordered[end]!) === 0) end++;
    for (let k = i; k < end; k++) {
      const publisher = facts[ordered[k]!]?.publisher;
      if (publisher && seen.size > 0 && !seen.has(publisher)) out.add(ordered[k]!);
    }
    for (let k = i; k < end; k++) {
      const publisher = facts[ordered[k]!]?.publisher;
      if (publisher) seen.add(publisher);
    }
    i = end;
  }
  return out;
}

/**
 * npm: this version's publisher published none of the earlier versions (those whose publisher is known). Which
 * versions qualify is derived once per document (newPublisherVersions); the finding's text once per version.
 */
function publisherFinding(eco: Ecosystem, pkg: RegistryPackage, version: string): SupplyChainFinding[] {
  if (eco !== "npm" || !pkg.versionFacts) return [];
  const publisher = pkg.versionFacts[version]?.publisher;
  if (!publisher) return [];
  const doc = documentFacts(pkg);
  doc.newPublisher ??= newPublisherVersions(eco, pkg);
  if (!doc.newPublisher.has(version)) return [];
  let found = doc.publisherFindings.get(version);
  if (!found) {
    found = describeNewPublisher(eco, pkg, version, publisher);
    doc.publisherFindings.set(version, found);
  }
  return found;
}

/** The new-publisher finding's text and evidence: the earlier versions and who published them. */
function describeNewPublisher(
  eco: Ecosystem,
  pkg: RegistryPackage,
  version: string,
  publisher: string,
): SupplyChainFinding[] {
  const before = (v: string) => {
    try {
      return compareVersions(eco, v, version) < 0;
    } catch {
      return false; // a version the ecosystem's order cannot read is no evidence either way
    }
  };
  const earlier = pkg.versions.filter(before);
  const earlierPublishers = new Set(earlier.flatMap((v) => pkg.versionFacts?.[v]?.publisher ?? []));
  if (earlierPublishers.size === 0 || earlierPublishers.has(publisher)) return [];
  const previous = [...earlierPublishers].slice(0, 5);
  return [
    {
      kind: "new_publisher",
      severity: "moderate",
      reason: `Published by ${publisher}, who published none of the ${earlier.length} earlier versions (${previous.join(", ")}${earlierPublishers.size > 5 ? ", ..." : ""} did)`,
      evidence: { publisher, earlierPublishers: previous },
    },
  ];
}

/** Lower-case words of at least three letters: "@scope/some-pkg" -> scope, some, pkg. */
const words = (s: string) => s.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [];
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * A monorepo's package names the monorepo and its own folder (`repository.directory`): DefinitelyTyped's
 * `types/node` for @types/node, node-postgres's `packages/pg-pool`, react's `packages/scheduler`. The folder matches
 * when one of its segments is the package's name, with or without its scope.
 */
function directoryMatches(name: string, directory: string | null | undefined): boolean {
  if (!directory) return false;
  const names = new Set([squash(name.split("/").pop() ?? name), squash(name)]);
  return directory.split("/").some((segment) => segment.length > 0 && names.has(squash(segment)));
}

/**
 * The repository's owner is an account that maintains the package or published one of its versions: the link is the
 * publisher's own repository, which a renamed project keeps under its old name (globalthis links
 * ljharb/System.global). Starjacking borrows another owner's popular repository; a repository field is copied in a
 * moment, a registry account is not. Registry and forge accounts are separate namespaces, so this trusts that an owner
 * who also holds the same-named registry account is one person, as npm and GitHub names mostly are; when the registry
 * names no accounts, nothing is cleared.
 */
function ownedByPublisher(pkg: RegistryPackage, owner: string): boolean {
  const wanted = owner.toLowerCase();
  if ((pkg.maintainers ?? []).some((m) => m.toLowerCase() === wanted)) return true;
  return Object.values(pkg.versionFacts ?? {}).some((f) => f.publisher?.toLowerCase() === wanted);
}

/**
 * The repository link: missing, or naming another project. A link matches when its owner or repository name shares
 * a word with the package name, the repository is named as the package (vercel/ms for ms), either squashed name
 * contains the other (monorepos such as babel/babel for @babel/core), or the package's folder in it is named as the
 * package (directoryMatches), or the repository's owner maintains or publishes the package (ownedByPublisher). The
 * link judged is the scanned version's own (repositoryOf). Go modules, whose path is
 * their repository, are not checked.
 */
function repositoryFindings(pkg: RegistryPackage, link: RepositoryLink | null): SupplyChainFinding[] {
  const url = link?.url;
  if (!url) {
    return [
      {
        kind: "repository_missing",
        severity: "low",
        reason: "No source repository is linked, so the published code cannot be compared with its source",
        evidence: { repositoryUrl: null },
      },
    ];
  }
  let parts: string[];
  try {
    parts = new URL(url).pathname.split("/").filter(Boolean).slice(0, 2);
  } catch {
    parts = [];
  }
  const directory = link.directory;
  if (parts.length < 2 || directoryMatches(pkg.name, directory) || ownedByPublisher(pkg, parts[0]!)) return [];
  const nameWords = new Set(words(pkg.name));
  const repoWords = parts.flatMap(words);
  const name = squash(pkg.name.split("/").pop() ?? pkg.name);
  const repo = squash(parts[1]!);
  const related =
    repo === name ||
    repoWords.some((w) => nameWords.has(w)) ||
    (repo.length >= 3 && name.length >= 3 && (name.includes(repo) || repo.includes(name)));
  if (related) return [];
  return [
    {
      kind: "repository_mismatch",
      severity: "low",
      reason: `The linked repository ${parts.join("/")}${directory ? ` (folder ${directory})` : ""} does not look like the source of ${pkg.name}`,
      evidence: { repositoryUrl: url, ...(directory ? { repositoryDirectory: directory } : {}) },
    },
  ];
}

/**
 * The repository a version links: its own document's (npm keeps one per version), else the package's. A version
 * whose document links nothing falls back to the package's link, which is what a reader of the registry page sees.
 * An old version that links the package's own repository without a folder (@types releases before `directory`
 * existed) takes the package's folder: same repository, the folder only says where in it.
 */
function repositoryOf(pkg: RegistryPackage, version: string): RepositoryLink | null {
  const own = pkg.versionFacts?.[version]?.repository;
  if (own) {
    const sameRepository = own.url.toLowerCase() === pkg.repositoryUrl?.toLowerCase();
    return !own.directory && sameRepository && pkg.repositoryDirectory
      ? { url: own.url, directory: pkg.repositoryDirectory }
      : own;
  }
  return pkg.repositoryUrl ? { url: pkg.repositoryUrl, directory: pkg.repositoryDirectory ?? null } : null;
}

/** repositoryFindings, derived once per document and distinct link. */
function repositoryOnce(eco: Ecosystem, pkg: RegistryPackage, version: string): SupplyChainFinding[] {
  if (eco === "go" || eco === "maven") return [];
  const link = repositoryOf(pkg, version);
  const key = link ? `${link.url}#${link.directory ?? ""}` : "";
  const doc = documentFacts(pkg);
  let found = doc.repository.get(key);
  if (!found) {
    found = repositoryFindings(pkg, link);
    doc.repository.set(key, found);
  }
  return found;
}

/**
 * A name near a popular one is a high finding when the candidate was shown to be at least 100 times less downloaded;
 * when its downloads could not be read the comparison is missing, so the finding is shown as unconfirmed and low
 * (verdict.ts weighs it little): a missing number neither hides a squat nor makes one.
 */
function typosquatFinding(match: TyposquatMatch | null): SupplyChainFinding[] {
  if (!match) return [];
  const confirmed = match.downloadsCompared === true;
  return [
    {
      kind: "typosquat",
      severity: confirmed ? "high" : "low",
      reason: confirmed
        ? `A possible typosquat of ${match.of}: ${match.evidence}`
        : `A name near ${match.of}, not confirmed as a typosquat: ${match.evidence}`,
      evidence: {
        typosquat_of: match.of,
        technique: match.technique,
        popularRank: match.popularRank,
        downloads_compared: confirmed,
      },
    },
  ];
}

/**
 * Every supply-chain finding for one version, the strongest kinds first. Without the registry's document (not found,
 * unavailable) only the typosquat check, which needs none, can speak.
 */
export function supplyChainFindings(
  eco: Ecosystem,
  pkg: RegistryPackage | null,
  version: string,
  now: Date,
  typosquat: TyposquatMatch | null,
): SupplyChainFinding[] {
  if (!pkg) return typosquatFinding(typosquat);
  const derivedFacts = versionDerived(eco, pkg, version);
  return [
    ...typosquatFinding(typosquat),
    ...derivedFacts.install,
    ...releaseFindings(pkg, derivedFacts, now),
    ...publisherFinding(eco, pkg, version),
    ...repositoryOnce(eco, pkg, version),
  ];
}
