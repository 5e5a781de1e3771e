"use client";
// API keys: owners create (plaintext shown once) and revoke; every member sees the list.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { ShownOnceKey } from "../_components/ShownOnceKey";
import { StatusBadge } from "../_components/StatusBadge";
import { useTRPC } from "../_components/trpc";

export function KeysView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const keys = useQuery(trpc.account.keys.queryOptions());
  const [name, setName] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.account.keys.queryKey() });
  const create = useMutation(trpc.account.createKey.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.account.revokeKey.mutationOptions({ onSuccess: refresh }));
  const isOwner = overview.data?.role === "owner";
  const limit = overview.data?.entitlements.apiKeys;
  const held = keys.data?.filter((k) => k.status !== "revoked").length ?? 0;

  return (
    <>
      <h1>API keys</h1>
      <p className="muted small">
        Keys authenticate calls to <code>/v1</code> as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-Key</code>. All keys share the
        workspace&apos;s monthly allowance. {limit !== undefined ? `This plan allows ${limit} key${limit === 1 ? "" : "s"} (${held} held).` : null}{" "}
        Keys beyond the limit after a plan change are paused, the oldest staying active; revocation is permanent.
      </p>
      {isOwner ? (
        <form
          className="card form-row"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ name: name || undefined });
          }}
        >
          <label>
            Key name
            <input name="keyName" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} placeholder="Production server" />
          </label>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            Create key
          </button>
          <ErrorNote error={create.error} />
          {create.data ? (
            <div style={{ flexBasis: "100%" }}>
              <ShownOnceKey apiKey={create.data.plaintext} />
            </div>
          ) : null}
        </form>
      ) : (
        <p className="notice">Only workspace owners create and revoke keys.</p>
      )}
      <div className="card">
        <ErrorNote error={keys.error ?? revoke.error} />
        <table className="list" data-testid="keys-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Prefix</th>
              <th>Status</th>
              <th>Created</th>
              <th>Last used</th>
              {isOwner ? <th /> : null}
            </tr>
          </thead>
          <tbody>
            {keys.data?.map((k) => (
              <tr key={k.id} data-testid="key-row" data-key-prefix={k.prefix}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>
                  <StatusBadge status={k.status} />
                </td>
                <td>{formatUtc(k.createdAt)}</td>
                <td data-testid="last-used">{formatUtc(k.lastUsedAt)}</td>
                {isOwner ? (
                  <td>
                    {k.status !== "revoked" ? (
                      <button
                        type="button"
                        className="btn btn-danger"
                        disabled={revoke.isPending}
                        onClick={() => {
                          if (window.confirm(`Revoke "${k.name}" (${k.prefix}…)? This cannot be undone.`)) revoke.mutate({ keyId: k.id });
                        }}
                      >
                        Revoke
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {keys.data?.length === 0 ? <p className="muted small">No keys yet.</p> : null}
      </div>
    </>
  );
}
