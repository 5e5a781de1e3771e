// PyPI's JSON API (GET /pypi/{name}/json): project metadata and every release with its upload time.
import { pypiUrl } from "./config";
import { fetchUpstream, type Fetched } from "./http";
import { normaliseRepositoryUrl, type RegistryPackage } from "./registry-types";

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
  releases?: Record<string, Array<{ upload_time_iso_8601?: string; yanked?: boolean }>>;
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
  const versions = Object.keys(doc.releases ?? {});
  for (const v of versions) {
    const times = (doc.releases?.[v] ?? [])
      .map((f) => f.upload_time_iso_8601)
      .filter((t): t is string => !!t)
      .sort();
    if (times[0]) publishedAt[v] = times[0];
  }
  return {
    name: doc.info.name,
    latestVersion: doc.info.version ?? null,
    description: doc.info.summary || null,
    license: licenseOf(doc.info),
    repositoryUrl: repositoryOf(doc.info),
    versions,
    publishedAt,
  };
}

export async function getPypiPackage(name: string): Promise<Fetched<RegistryPackage>> {
  return fetchUpstream({ source: "pypi", url: pypiProjectUrl(name) }, parsePypiProject);
}
