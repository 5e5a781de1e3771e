"use client";
// The workspace id (ws_…), shown and copyable wherever someone may need to give it to the operator, whose plan
// commands take it (the overview, the plan page, the workspace switcher).
import { CopyButton } from "./CopyButton";
import "./workspace-id.css";

export function WorkspaceId({ id, compact = false }: { id: string; compact?: boolean }) {
  return (
    <span className={`workspace-id${compact ? " small" : ""}`} data-testid="workspace-id">
      <span className="muted">Workspace id</span> <code>{id}</code> <CopyButton text={id} label="Copy id" />
    </span>
  );
}
