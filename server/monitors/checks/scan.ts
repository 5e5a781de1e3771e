// scan: the website's grade from a private scan (POST /scans, scans.create). A scan still running when the
// answer is due has no grade yet; its state is `running` and compares like any other.
import type { ScanView } from "../../site-scans/schemas";
import type { CheckSpec, Severity } from "./types";

function gradeSeverity(grade: string | null): Severity {
  if (!grade) return "ok";
  if (grade.startsWith("F")) return "critical";
  if (grade.startsWith("D") || grade.startsWith("E")) return "warning";
  return "ok";
}

export const scanCheck: CheckSpec = {
  type: "scan",
  about: "scan: the website grade of a private scan (D/E warning, F or a failed scan critical)",
  needsName: false,
  procedure: "scans.create",
  calls: (t) => [{ url: t.url, visibility: "private" }],
  state([r]: ScanView[]) {
    return {
      state: { status: r!.status, grade: r!.grade ?? null },
      severity: r!.status === "failed" ? "critical" : gradeSeverity(r!.grade ?? null),
    };
  },
};
