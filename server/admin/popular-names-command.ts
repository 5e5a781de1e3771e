// `popular-names status` and `popular-names refresh`: the popular-name lists behind the typosquat check (npm's
// ships; PyPI's is built from SERVICE_PYPI_POPULAR_URL), thin wrappers over the vulnerability module.
import type { Db } from "../db/client";
import { popularNamesInfo } from "../vulnerabilities/popular-names";
import { popularNamesReady, refreshAllPopularNames } from "../vulnerabilities/popular-refresh";
import { ECOSYSTEMS } from "../vulnerabilities/versions";

export async function popularNamesCommand(
  db: Db,
  verb: string,
): Promise<{ result: unknown; text: string; failed?: string; failedCode?: string }> {
  if (verb === "refresh") {
    const rows = await refreshAllPopularNames(db);
    const lines = rows.map((r) =>
      [r.ecosystem, r.ok ? "refreshed" : "kept", String(r.count), r.date ?? "", r.sourceUrl ?? "", r.error ?? ""].join(
        "\t",
      ),
    );
    // A configured source that failed fails the command (exit 1, after the rows), as `feeds refresh` does, so a
    // scheduled refresh notices; an ecosystem with no source configured is not a failure.
    const failing = rows.filter((r) => !r.ok && r.sourceUrl);
    return {
      result: rows,
      text: ["ecosystem\toutcome\tnames\tdated\tsource\terror", ...lines].join("\n"),
      ...(failing.length > 0 && {
        failed: `refresh failed for ${failing.map((r) => `${r.ecosystem} (${r.error})`).join(", ")}; the previous list is kept`,
        failedCode: "POPULAR_NAMES_REFRESH_FAILED",
      }),
    };
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
