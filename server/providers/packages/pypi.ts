// PyPI's JSON API (GET /pypi/{name}/json): project metadata and every release with its upload time.
import { pypiUrl } from "./config";
import { fetchUpstream, type Fetched } from "./http";
import { normaliseRepositoryUrl, type RegistryPackage, type VersionFacts } from "./registry-types";

type PypiProject = {
  info?: {
    name?: string;
    version?: string;
    summary?: string | null;
    license?: string | null;
    license_expression?: string | null;
    classifiers?: string[];
    home_page?: string | null;
    project_urls?: Record<string, string> | null;
  };
  releases?: Record<
    string,
    Array<{ upload_time_iso_8601?: string; yanked?: boolean; yanked_reason?: string | null; packagetype?: string }>
  >;
};

export function pypiProjectUrl(name: string): string {
  return `${pypiUrl()}/pypi/${encodeURIComponent(name)}/json`;
}

function licenseOf(info: NonNullable<PypiProject["info"]>): string | null {
  if (info.license_expression) return info.license_expression;
  // Some projects paste the whole licence text into "license": only a short name is a useful answer.
  if (info.license && info.license.length <= 80 && !info.license.includes("\n")) return info.license;
  const classifier = info.classifiers?.find((c) => c.startsWith("License :: "));
  return classifier ? (classifier.split(" :: ").pop() ?? null) : null;
}

function repositoryOf(info: NonNullable<PypiProject["info"]>): string | null {
  const urls = Object.entries(info.project_urls ?? {});
  const preferred = urls.find(([k]) => /^(source|source code|repository|code|github)$/i.test(k.trim()));
  const hosted = urls.find(([, v]) => /github\.com|gitlab\.com|bitbucket\.org/.test(v));
  return normaliseRepositoryUrl(preferred?.[1] ?? hosted?.[1] ?? info.home_page ?? null);
}

export function parsePypiProject(body: string): RegistryPackage {
  const doc = JSON.parse(body) as PypiProject;
  if (!doc.info?.name) throw new Error("not a PyPI project document");
  const publishedAt: Record<string, string> = {};
  const versionFacts: Record<string, VersionFacts> = {};
  const versions = Object.keys(doc.releases ?? {});
  for (const v of versions) {
    const times = (doc.releases?.[v] ?? [])
      .map((f) => f.upload_time_iso_8601)
      .filter((t): t is string => !!t)
      .sort();
    if (times[0]) publishedAt[v] = times[0];
    const files = doc.releases?.[v] ?? [];
    const facts: VersionFacts = {};
    // A release is yanked when all its files are (PyPI yanks releases, and marks each file).
    if (files.length && files.every((f) => f.yanked)) facts.yanked = { reason: files[0]?.yanked_reason ?? "" };
    if (files.length && !files.some((f) => f.packagetype === "bdist_wheel")) facts.sourceOnly = true;
    versionFacts[v] = facts;
  }
  return {
    name: doc.info.name,
    latestVersion: doc.info.version ?? null,
    description: doc.info.summary || null,
    license: licenseOf(doc.info),
    repositoryUrl: repositoryOf(doc.info),
    versions,
    publishedAt,
    versionFacts,
  };
}

export async function getPypiPackage(name: string): Promise<Fetched<RegistryPackage>> {
  return fetchUpstream({ source: "pypi", url: pypiProjectUrl(name) }, parsePypiProject);
}
