"use client";
// Members: owners invite by email (linked when that person signs in), change roles and remove; everyone sees the
// list. The plan includes a number of members (owners count): those beyond it stay listed, marked "not included"
// with the reason, and cannot run dashboard lookups until capacity returns.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import "./members.css";
import { BusyButton } from "../_components/BusyButton";
import { useDoneNotice } from "../_components/DoneNotice";
import { useRefusalAtField } from "../_components/field-problem";

/** The invitation's fields by the API's names: a refusal of the address is said at the Email field (field-problem.ts). */
const INVITE_LABELS: Record<string, string> = { email: "Email", role: "Role" };

type Member = {
  id: string;
  email: string;
  role: "owner" | "member";
  joined: boolean;
  createdAt: string | Date;
  included: boolean;
  notIncludedReason: string | null;
};

/** The message of a failed call, in words: the members page never shows the raw error code. */
function Problem({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  const message = (error as { message?: string } | null)?.message;
  return (
    <p className="error" role="alert" data-testid="members-error" id={id} tabIndex={id ? -1 : undefined}>
      {message && message.length < 300 ? message : "Something went wrong; try again."}
    </p>
  );
}

export function MembersView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const members = useQuery(trpc.account.members.queryOptions());
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"member" | "owner">("member");
  const [confirming, setConfirming] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.account.members.queryKey() });
  // A new action clears the message of the previous one, so an old error never stays beside a later success.
  const actions = useRef<Record<"invite" | "remove" | "role", { reset: () => void }>>(null);
  // A removed member's row goes, with the button pressed in it: a line says who was removed and takes the focus.
  const done = useDoneNotice();
  const clearErrors = (except: "invite" | "remove" | "role") => (): void => {
    done.clear();
    for (const [name, m] of Object.entries(actions.current ?? {})) if (name !== except) m.reset();
  };
  const invite = useMutation(
    trpc.account.inviteMember.mutationOptions({
      onMutate: clearErrors("invite"),
      onSuccess: () => {
        setEmail("");
        void refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.account.removeMember.mutationOptions({
      onMutate: clearErrors("remove"),
      onSuccess: () => (setConfirming(null), void refresh()),
    }),
  );
  const changeRole = useMutation(
    trpc.account.changeMemberRole.mutationOptions({ onMutate: clearErrors("role"), onSuccess: () => void refresh() }),
  );
  actions.current = { invite, remove, role: changeRole };
  // A refused address (not an email, already invited) marks the Email field, is its description and takes the focus;
  // a refusal about the workspace (its plan's member limit) takes the focus itself.
  const refusal = useRefusalAtField(invite.error, { labels: INVITE_LABELS, main: "email" });
  const isOwner = overview.data?.role === "owner";
  const limit = overview.data?.entitlements.members;
  const list = (members.data ?? []) as Member[];
  // The last owner can neither become a member nor be removed (the server refuses both, so a workspace is never
  // left without an owner; invited owners count): that row offers no button that could only be refused.
  const soleOwner = list.filter((m) => m.role === "owner").length === 1;

  return (
    <>
      <h1>Members</h1>
      {limit !== undefined && members.data ? (
        <p className="notice" data-testid="member-allowance">
          This workspace&apos;s plan includes {limit} member{limit === 1 ? "" : "s"} (owners count); {list.length}{" "}
          {list.length === 1 ? "is" : "are"} listed
          {list.some((m) => !m.included) ? `, ${list.filter((m) => !m.included).length} of them not included` : ""}.
        </p>
      ) : null}
      <p className="muted small">
        Included members run dashboard lookups with this workspace&apos;s capabilities and shared monthly allowance.
        Owners also manage API keys, senders and members. An invitation is linked when the invited person signs in with
        that email.
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
            <input
              type="email"
              name="inviteEmail"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
              maxLength={254}
              placeholder="colleague@example.com"
              {...refusal.fieldProps("email")}
            />
          </label>
          <label>
            Role
            <select
              name="inviteRole"
              value={role}
              onChange={(e) => setRole(e.target.value as "member" | "owner")}
              {...refusal.fieldProps("role")}
            >
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </select>
          </label>
          <BusyButton type="submit" className="btn btn-primary" busy={invite.isPending} busyLabel="Inviting…">
            Invite
          </BusyButton>
          <Problem error={invite.error} id={refusal.noteId} />
        </form>
      ) : overview.data ? (
        <p className="notice">Only workspace owners invite members, change roles and remove members.</p>
      ) : (
        <ReadFailed what="Your role in this workspace" query={overview} />
      )}
      <div className="card">
        {members.isPending ? <p className="muted">Loading members…</p> : null}
        {/* A failed read says what could not be read, with Retry where reading again may work (ErrorNote.tsx). */}
        <ReadFailed what="The members" query={members} testId="members-read-error" />
        <Problem error={remove.error ?? changeRole.error} />
        {done.notice}
        <ul className="member-list" data-testid="members-table">
          {list.map((m) => (
            <li key={m.id} className="member-row" data-testid="member-row" data-email={m.email}>
              <div className="member-who">
                <strong>{m.email}</strong>
                <span className="muted small">
                  {m.role === "owner" ? "Owner" : "Member"} · added {formatUtc(m.createdAt)}
                </span>
              </div>
              <div className="member-badges">
                <span className={`badge ${m.joined ? "badge-active" : "badge-pending"}`}>
                  {m.joined ? "joined" : "invited"}
                </span>
                {m.included ? null : (
                  <span className="badge badge-paused" data-testid="not-included">
                    not included
                  </span>
                )}
              </div>
              {m.notIncludedReason ? (
                <p className="member-reason small">
                  {m.notIncludedReason} They can read this workspace but not run lookups.
                </p>
              ) : null}
              {isOwner && soleOwner && m.role === "owner" ? (
                <p className="member-note small muted" data-testid="sole-owner">
                  The only owner: make another member an owner first to change this role or remove them.
                </p>
              ) : isOwner ? (
                <div className="member-actions">
                  {confirming === m.id ? (
                    <ConfirmQuestion
                      className="member-actions"
                      label={`Remove ${m.email}`}
                      question={<span className="small">Remove {m.email}?</span>}
                      onCancel={() => setConfirming(null)}
                    >
                      <BusyButton
                        type="button"
                        className="btn btn-danger"
                        busy={remove.isPending}
                        onClick={() =>
                          remove.mutate({ memberId: m.id }, { onSuccess: () => done.say(`Removed ${m.email}.`) })
                        }
                      >
                        Yes, remove
                      </BusyButton>
                    </ConfirmQuestion>
                  ) : (
                    <>
                      <BusyButton
                        type="button"
                        className="btn"
                        busy={changeRole.isPending}
                        onClick={() =>
                          changeRole.mutate({ memberId: m.id, role: m.role === "owner" ? "member" : "owner" })
                        }
                      >
                        {m.role === "owner" ? "Make member" : "Make owner"}
                      </BusyButton>
                      <button
                        type="button"
                        className="btn btn-danger"
                        onClick={() => setConfirming(m.id)}
                        data-confirm-trigger
                      >
                        Remove
                      </button>
                    </>
                  )}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
