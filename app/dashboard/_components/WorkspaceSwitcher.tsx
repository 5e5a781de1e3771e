"use client";
// Picks the workspace the dashboard acts on, and shows the selected one's id (copyable: the operator needs it).
import { useRouter } from "next/navigation";
import { WorkspaceId } from "./WorkspaceId";
import { selectWorkspace } from "./workspace-cookie";

export interface WorkspaceChoice {
  id: string;
  name: string;
  role: string;
}

export function WorkspaceSwitcher({
  workspaces,
  selectedId,
}: {
  workspaces: WorkspaceChoice[];
  selectedId: string | null;
}) {
  const router = useRouter();
  if (workspaces.length === 0) return null;
  return (
    <div className="switcher-wrap">
      <label className="switcher">
        <span className="muted small">Workspace</span>
        <select
          data-testid="workspace-switcher"
          value={selectedId ?? ""}
          onChange={(e) => {
            selectWorkspace(e.target.value);
            router.refresh();
          }}
        >
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name} ({w.role})
            </option>
          ))}
        </select>
      </label>
      {selectedId ? <WorkspaceId id={selectedId} compact /> : null}
    </div>
  );
}
