// What several procedures of the reports router share (schemas, helpers), or what other modules import from it.
import { type ReportEditor } from "../../../reports/manage";
import type { Principal } from "../../context";
import { AppError } from "../../../errors";

/** Only signed-in members change reports; the manage module decides between owners, authors and others. */
export function editorOf(p: Principal): ReportEditor {
  if (p.kind !== "member") throw new AppError("FORBIDDEN", "API keys cannot change saved reports.");
  return { userId: p.userId, role: p.role };
}
