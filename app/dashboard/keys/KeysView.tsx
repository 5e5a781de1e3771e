"use client";
// API keys: owners create (plaintext shown once) and revoke, with an in-page confirmation; every member sees the
// list. Whether the viewer is an owner is known only once the workspace overview has loaded: until then the page
// says it is loading, and a failed load says so, never that the viewer is not an owner.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { ShownOnceKey } from "../_components/ShownOnceKey";
import { StatusBadge } from "../_components/StatusBadge";
import { useTRPC } from "../_components/trpc";
import "../reports/row-cards.css";
import { MonthUsageCard, useMonthUsage } from "./MonthUsage";
import { BusyButton } from "../_components/BusyButton";
import { useDoneNotice } from "../_components/DoneNotice";

export function KeysView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const keys = useQuery(trpc.account.keys.queryOptions());
  const month = useMonthUsage();
  const unitsOf = (id: string) => month.data?.keys.find((k) => k.key_id === id);
  const [name, setName] = useState("");
  const [kind, setKind] = useState<"secret" | "publishable">("secret");
  const [origins, setOrigins] = useState("");
  const [confirming, setConfirming] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.account.keys.queryKey() });
  // A revoked key keeps its row but loses its Revoke button, which had the focus: a line says so and takes it.
  const done = useDoneNotice();
  // A created key empties the form for the next one (the lists' and webhooks' forms do the same).
  const create = useMutation(
    trpc.account.createKey.mutationOptions({
      onMutate: done.clear,
      onSuccess: () => {
        setName("");
        setOrigins("");
        return refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.account.revokeKey.mutationOptions({
      onSuccess: (_data, { keyId }) => {
        setConfirming(null);
        // The shown-once box must not keep offering a key that no longer works.
        if (create.data?.key.id === keyId) create.reset();
        void refresh();
      },
    }),
  );
  const isOwner = overview.data?.role === "owner";
  const limit = overview.data?.entitlements.apiKeys;
  // Unknown until the keys are read: no "(0 held)" while they load or could not be read.
  const held = keys.data?.filter((k) => k.status !== "revoked").length;

  return (
    <>
      <h1>API keys</h1>
      <p className="muted small">
        Keys authenticate calls to <code>/v1</code> as <code>Authorization: Bearer &lt;key&gt;</code> or{" "}
        <code>X-API-Key</code>. All keys share the workspace&apos;s monthly allowance.{" "}
        {limit !== undefined
          ? `This plan allows ${limit} key${limit === 1 ? "" : "s"}${held !== undefined ? ` (${held} held)` : ""}.`
          : null}{" "}
        Keys beyond the limit after a plan change are paused, the oldest staying active; revoking an active key resumes
        the oldest paused one. Revocation is permanent.
      </p>
      {overview.isPending ? (
        <p className="muted small" data-testid="role-loading">
          Loading your role in this workspace…
        </p>
      ) : overview.error ? (
        <ReadFailed what="Your role in this workspace" query={overview} />
      ) : isOwner ? (
        <form
          className="card form-row"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({
              name: name || undefined,
              kind,
              allowedOrigins: kind === "publishable" ? origins.split(/[\s,]+/).filter(Boolean) : undefined,
            });
          }}
        >
          <label>
            Key name
            <input
              name="keyName"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={100}
              placeholder="Production server"
            />
          </label>
          <label>
            Kind
            <select
              name="keyKind"
              value={kind}
              onChange={(e) => setKind(e.target.value === "publishable" ? "publishable" : "secret")}
            >
              <option value="secret">Secret (your server, every route)</option>
              <option value="publishable">Publishable (web pages, device check only)</option>
            </select>
          </label>
          {kind === "publishable" ? (
            <label style={{ flexBasis: "100%" }}>
              Allowed web origins (one per line)
              <textarea
                name="allowedOrigins"
                value={origins}
                onChange={(e) => setOrigins(e.target.value)}
                rows={3}
                placeholder={"https://shop.example.com\nhttps://www.shop.example.com"}
                aria-describedby="origins-help"
              />
              <span id="origins-help" className="muted small">
                A publishable key goes in your page (<code>data-publishable-key</code> of <code>/device.js</code>): it
                can only run device checks, only from these origins, with a per-visitor rate limit. Each check costs 1
                unit.
              </span>
            </label>
          ) : null}
          <BusyButton type="submit" className="btn btn-primary" busy={create.isPending}>
            Create key
          </BusyButton>
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
        <ReadFailed what="The keys" query={keys} testId="keys-read-error" />
        <ErrorNote error={revoke.error} />
        {done.notice}
        <div>
          <table className="list cards" data-testid="keys-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Prefix</th>
                <th>Kind</th>
                <th>Status</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Units this month</th>
                {isOwner ? <th>Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {keys.data?.map((k) => (
                <tr key={k.id} data-testid="key-row" data-key-prefix={k.prefix}>
                  <td data-label="Name">{k.name}</td>
                  <td data-label="Prefix">
                    <code>{k.prefix}…</code>
                  </td>
                  <td data-testid="key-kind" data-label="Kind">
                    {k.kind === "publishable" ? (
                      <>
                        Publishable
                        <div className="muted small" data-testid="key-origins">
                          {k.allowedOrigins.join(", ")}
                        </div>
                      </>
                    ) : (
                      "Secret"
                    )}
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={k.status} />
                  </td>
                  <td data-label="Created">{formatUtc(k.createdAt)}</td>
                  <td data-testid="last-used" data-label="Last used">
                    {formatUtc(k.lastUsedAt)}
                  </td>
                  <td data-testid="key-units" data-label="Units this month">
                    {month.data ? (unitsOf(k.id)?.units ?? 0).toLocaleString("en-US") : "…"}
                  </td>
                  {isOwner ? (
                    <td className="row-actions cell-actions">
                      {k.status === "revoked" ? null : confirming === k.id ? (
                        <ConfirmQuestion
                          label={`Revoke ${k.name}`}
                          question={<span>Revoke “{k.name}”? This cannot be undone.</span>}
                          onCancel={() => setConfirming(null)}
                        >
                          <BusyButton
                            type="button"
                            className="btn btn-danger"
                            busy={revoke.isPending}
                            onClick={() =>
                              revoke.mutate({ keyId: k.id }, { onSuccess: () => done.say(`Revoked “${k.name}”.`) })
                            }
                          >
                            Yes, revoke
                          </BusyButton>
                        </ConfirmQuestion>
                      ) : (
                        <button
                          type="button"
                          className="btn btn-danger"
                          onClick={() => setConfirming(k.id)}
                          data-confirm-trigger
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {keys.isPending ? <p className="muted small">Loading keys…</p> : null}
        {keys.data?.length === 0 ? <p className="muted small">No keys yet.</p> : null}
      </div>
      <MonthUsageCard query={month} />
    </>
  );
}
