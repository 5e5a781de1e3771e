// Maven Central (a Maven 2 layout repository): maven-metadata.xml lists an artifact's versions; the POM of the
// latest release gives its description, licence and source repository.
import { mavenRepositoryUrl } from "./config";
import { fetchUpstream, type Fetched } from "./http";
import { normaliseRepositoryUrl, type RegistryPackage } from "./registry-types";

export type MavenCoordinate = { groupId: string; artifactId: string };

export function parseMavenCoordinate(coordinate: string): MavenCoordinate | null {
  const m = /^([A-Za-z0-9_.-]+):([A-Za-z0-9_.-]+)$/.exec(coordinate.trim());
  return m ? { groupId: m[1], artifactId: m[2] } : null;
}

function artifactBase(c: MavenCoordinate): string {
  return `${mavenRepositoryUrl()}/${c.groupId.replace(/\./g, "/")}/${c.artifactId}`;
}

export function mavenMetadataUrl(c: MavenCoordinate): string {
  return `${artifactBase(c)}/maven-metadata.xml`;
}

function decodeXml(s: string): string {
  return s
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}

/** Text of the first <tag> inside the given XML fragment (no nested same-name tags in the fields we read). */
function tagText(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m ? decodeXml(m[1]) || null : null;
}

type MavenMetadata = { versions: string[]; latest: string | null; release: string | null };

export function parseMavenMetadata(body: string): MavenMetadata {
  if (!/<metadata[\s>]/.test(body)) throw new Error("not a maven-metadata.xml document");
  const versionsBlock = tagText(body, "versions") ?? "";
  const versions = [...versionsBlock.matchAll(/<version>([\s\S]*?)<\/version>/g)].map((m) => decodeXml(m[1]));
  return { versions, latest: tagText(body, "latest"), release: tagText(body, "release") };
}

type PomFields = { description: string | null; license: string | null; repositoryUrl: string | null };

export function parsePom(body: string): PomFields {
  if (!/<project[\s>]/.test(body)) throw new Error("not a POM");
  // Drop the parent block so its <url>/<description> never pass for this artifact's own.
  const own = body.replace(/<parent>[\s\S]*?<\/parent>/, "");
  const licenses = tagText(own, "licenses");
  const scm = tagText(own, "scm");
  return {
    description: tagText(own.replace(/<(dependencies|build|profiles)>[\s\S]*?<\/\1>/g, ""), "description"),
    license: licenses ? tagText(licenses, "name") : null,
    repositoryUrl: scm ? normaliseRepositoryUrl(tagText(scm, "url") ?? tagText(scm, "connection")) : null,
  };
}

export async function getMavenPackage(c: MavenCoordinate): Promise<Fetched<RegistryPackage>> {
  const meta = await fetchUpstream(
    { source: "maven", url: mavenMetadataUrl(c), accept: "application/xml" },
    parseMavenMetadata,
  );
  if (meta.kind !== "ok") return meta;
  if (meta.value.versions.length === 0) return { kind: "not_found", url: meta.url };
  const latest = meta.value.release ?? meta.value.latest ?? meta.value.versions[meta.value.versions.length - 1];
  const pomUrl = `${artifactBase(c)}/${latest}/${c.artifactId}-${latest}.pom`;
  const pom = await fetchUpstream({ source: "maven", url: pomUrl, accept: "application/xml" }, parsePom);
  // The POM only adds descriptive fields: without it the report still has every version.
  const fields: PomFields = pom.kind === "ok" ? pom.value : { description: null, license: null, repositoryUrl: null };
  return {
    ...meta,
    value: {
      name: `${c.groupId}:${c.artifactId}`,
      latestVersion: latest,
      ...fields,
      versions: meta.value.versions,
      publishedAt: {},
    },
  };
}
