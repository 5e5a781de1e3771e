"use client";
// Members: owners invite by email (linked when that person signs in) and remove; everyone sees the list.
// Members run lookups with the workspace's capabilities and quota; only owners manage keys, plans and members.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";

export function MembersView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const members = useQuery(trpc.account.members.queryOptions());
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"member" | "owner">("member");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.account.members.queryKey() });
  const invite = useMutation(
    trpc.account.inviteMember.mutationOptions({
      onSuccess: () => {
        setEmail("");
        void refresh();
      },
    }),
  );
  const remove = useMutation(trpc.account.removeMember.mutationOptions({ onSuccess: refresh }));
  const isOwner = overview.data?.role === "owner";

  return (
    <>
      <h1>Members</h1>
      <p className="muted small">
        Members run dashboard lookups with this workspace&apos;s capabilities and shared monthly allowance. Owners also manage API keys, the plan
        and members. An invitation is linked when the invited person signs in with that email.
      </p>
      {isOwner ? (
        <form
          className="card form-row"
          onSubmit={(e) => {
            e.preventDefault();
            invite.mutate({ email, role });
          }}
        >
          <label>
            Email
            <input type="email" name="inviteEmail" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={254} placeholder="colleague@example.com" />
          </label>
          <label>
            Role
            <select name="inviteRole" value={role} onChange={(e) => setRole(e.target.value as "member" | "owner")}>
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </select>
          </label>
          <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
            Invite
          </button>
          <ErrorNote error={invite.error} />
        </form>
      ) : overview.data ? (
        <p className="notice">Only workspace owners invite and remove members.</p>
      ) : null}
      <div className="card">
        <ErrorNote error={members.error ?? remove.error} />
        <table className="list" data-testid="members-table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th>Status</th>
              <th>Added</th>
              {isOwner ? <th /> : null}
            </tr>
          </thead>
          <tbody>
            {members.data?.map((m) => (
              <tr key={m.id} data-testid="member-row" data-email={m.email}>
                <td>{m.email}</td>
                <td>{m.role}</td>
                <td>
                  <span className={`badge ${m.joined ? "badge-active" : "badge-pending"}`}>{m.joined ? "joined" : "invited"}</span>
                </td>
                <td>{formatUtc(m.createdAt)}</td>
                {isOwner ? (
                  <td>
                    <button
                      type="button"
                      className="btn btn-danger"
                      disabled={remove.isPending}
                      onClick={() => {
                        if (window.confirm(`Remove ${m.email} from this workspace?`)) remove.mutate({ memberId: m.id });
                      }}
                    >
                      Remove
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
