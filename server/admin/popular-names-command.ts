// `popular-names status` and `popular-names refresh`: the popular-name lists behind the typosquat check (npm's
// ships; PyPI's is built from SERVICE_PYPI_POPULAR_URL), thin wrappers over the vulnerability module.
import type { Db } from "../db/client";
import { popularNamesInfo } from "../vulnerabilities/popular-names";
import { popularNamesReady, refreshAllPopularNames } from "../vulnerabilities/popular-refresh";
import { ECOSYSTEMS } from "../vulnerabilities/versions";

export async function popularNamesCommand(db: Db, verb: string): Promise<{ result: unknown; text: string }> {
  if (verb === "refresh") {
    const rows = await refreshAllPopularNames(db);
    const lines = rows.map((r) =>
      [r.ecosystem, r.ok ? "refreshed" : "kept", String(r.count), r.date ?? "", r.sourceUrl ?? "", r.error ?? ""].join(
        "\t",
      ),
    );
    return { result: rows, text: ["ecosystem\toutcome\tnames\tdated\tsource\terror", ...lines].join("\n") };
  }
  const rows = [];
  for (const ecosystem of ECOSYSTEMS) {
    await popularNamesReady(ecosystem, db);
    rows.push({ ecosystem, ...popularNamesInfo(ecosystem) });
  }
  const lines = rows.map((r) =>
    [r.ecosystem, String(r.count), r.date ?? "", r.source, r.reason ?? r.refreshError ?? ""].join("\t"),
  );
  return { result: rows, text: ["ecosystem\tnames\tdated\tsource\tnote", ...lines].join("\n") };
}
