"use client";
// Creates a workspace on the Free plan with the signed-in user as owner; its first API key is shown once.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ErrorNote } from "./ErrorNote";
import { ShownOnceKey } from "./ShownOnceKey";
import { useTRPC } from "./trpc";
import { selectWorkspace } from "./workspace-cookie";
import { BusyButton } from "./BusyButton";

/**
 * `refreshSwitcher`: beside an open workspace (the overview), the switcher's list, which comes from the server
 * layout, is refreshed as soon as the new workspace exists. Not on the first-run screen: there the refreshed
 * layout would replace this form, and with it the key that is shown only once, before the user could copy it.
 */
export function CreateWorkspaceForm({ refreshSwitcher = false }: { refreshSwitcher?: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.account.createWorkspace.mutationOptions({ onSuccess: () => (refreshSwitcher ? router.refresh() : undefined) }),
  );
  if (create.data) {
    const { workspaceId, apiKey } = create.data;
    return (
      <div className="card" data-testid="workspace-created">
        <h2>Workspace created</h2>
        <p>It starts on the Free plan with one API key:</p>
        <ShownOnceKey apiKey={apiKey} />
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            selectWorkspace(workspaceId);
            router.push("/dashboard");
            router.refresh();
          }}
        >
          Open the workspace
        </button>
      </div>
    );
  }
  return (
    <form
      className="card form-row"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ name });
      }}
    >
      <label>
        Workspace name
        <input
          name="workspaceName"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={100}
          placeholder="Acme Inc."
        />
      </label>
      <BusyButton type="submit" className="btn btn-primary" busy={create.isPending}>
        Create workspace
      </BusyButton>
      <ErrorNote error={create.error} />
    </form>
  );
}
