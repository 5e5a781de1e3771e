// composer.lock: `packages` and `packages-dev` list every installed package with its exact version. Versions keep a
// leading "v" as written ("v5.4.0"): the Composer comparator (versions/composer-order.ts) normalises it away as
// Composer does, so nothing is lost and the answer shows the version the lockfile names. Branch versions
// ("dev-main") and path repositories name no release and are skipped.
import { collector, expectArray, expectObject, LineIndex, parseJson, str, TextScanner } from "./common";
import type { ParsedLockfile } from "./types";

export function parseComposerLock(text: string): ParsedLockfile {
  const lines = new LineIndex(text);
  const scan = new TextScanner(lines);
  const doc = expectObject("composer", parseJson("composer", lines), "the file", 1);
  const out = collector();
  for (const section of ["packages", "packages-dev"] as const) {
    if (doc[section] === undefined || doc[section] === null) continue;
    const sectionLine = scan.find(section);
    const list = expectArray("composer", doc[section], `"${section}"`, sectionLine);
    for (const raw of list) {
      const entry = expectObject("composer", raw, `an entry of "${section}"`, sectionLine);
      const rawName = str(entry.name);
      const line = rawName ? scan.find(rawName) : null;
      const version = str(entry.version);
      if (!rawName || !version) {
        out.skip(rawName ?? "", version ?? "", "an entry without a name or a version", line);
        continue;
      }
      const name = rawName.toLowerCase();
      const dist = expectObject("composer", entry.dist ?? {}, `"dist" of "${rawName}"`, line);
      if (dist.type === "path") {
        out.skip(name, str(dist.url) ?? version, "path repository (a local folder, not from Packagist)", line);
      } else if (version.startsWith("dev-") || version.endsWith("-dev")) {
        out.skip(name, version, "development branch, not a tagged release", line);
      } else out.add("composer", name, version, line, section === "packages-dev");
    }
  }
  return out.result("composer");
}
