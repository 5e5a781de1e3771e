"use client";
// Create or edit a monitor: target, name, checks (with their options), the interval the plan allows and the TLS
// expiry thresholds; the monthly units are shown before saving. A mistake is said next to its field, in the words of
// its label (form-check.ts), before anything is sent; the API's refusal of a field is shown there too. Either way the
// field is marked and described by its problem, and the first one takes the keyboard (field-problem.ts).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { CHECK_TYPES, type CheckType } from "../../../server/monitors/checks/types";
import { INTERVALS, type MonitorInterval } from "../../../server/monitors/limits";
import { carryDoneNotice } from "../_components/DoneNotice";
import { ErrorNote, isUnreachable } from "../_components/ErrorNote";
import { useFieldProblems } from "../_components/field-problem";
import { useTRPC } from "../_components/trpc";
import { fromChecks, toChecks, type FormCheck } from "./checks-input";
import { monitorFormProblems, monitorServerProblem, type FieldProblems, type MonitorField } from "./form-check";
import { Estimate } from "./Estimate";
import { useMonitorPlan } from "./plan";
import { CHECK_WORDS, INTERVAL_WORDS } from "../../../server/monitors/state-words";
import { BusyButton } from "../_components/BusyButton";

export interface MonitorFormValues {
  id?: string;
  name: string | null;
  target: string;
  checks: FormCheck[];
  interval: MonitorInterval;
  thresholds: { tls_expiry_days: number[] };
}

/** A field's problem under it, named by the field's aria-describedby. */
function FieldError({ id, text }: { id: string; text: string | undefined }): ReactNode {
  return text ? (
    <span className="error" id={id} data-testid="monitor-field-error">
      {text}
    </span>
  ) : null;
}

export function MonitorForm({ initial, onSaved }: { initial: MonitorFormValues; onSaved?: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const plan = useMonitorPlan();
  const [target, setTarget] = useState(initial.target);
  const [name, setName] = useState(initial.name ?? "");
  const [types, setTypes] = useState<CheckType[]>(initial.checks.map((c) => c.type));
  const [options, setOptions] = useState(fromChecks(initial.checks));
  const [interval, setInterval] = useState<MonitorInterval>(initial.interval);
  const [expiry, setExpiry] = useState(initial.thresholds.tls_expiry_days.join(", "));
  // What the last press of the button found wrong, kept until the next press.
  const [problems, setProblems] = useState<FieldProblems>({});
  // A new object at each press of the button: the focus moves to the first problem it finds.
  const [attempt, setAttempt] = useState<object | null>(null);
  const saved = (id: string) => {
    void queryClient.invalidateQueries({ queryKey: trpc.monitors.pathKey() });
    if (onSaved) onSaved();
    else router.push(`/dashboard/monitors/${id}`);
  };
  const create = useMutation(
    trpc.monitors.create.mutationOptions({
      onSuccess: (m) => {
        // The form and its button go with this page: the new monitor's page says what was made, with the focus.
        if (!onSaved) carryDoneNotice(`/dashboard/monitors/${m.id}`, `Created the monitor “${m.name ?? m.target}”.`);
        saved(m.id);
      },
    }),
  );
  const update = useMutation(trpc.monitors.update.mutationOptions({ onSuccess: (m) => saved(m.id) }));
  const pending = create.isPending || update.isPending;
  const refusal = create.error ?? update.error;

  // A monitor of packages only looks at nothing of its target: it may name the project instead of a host.
  const projectOnly = types.length > 0 && types.every((t) => t === "packages");
  // A project monitor (made on the Projects page) edited here: its target is the project's name.
  const watchesProject = types.includes("project");
  const allowed = plan?.allowed ?? INTERVALS;
  // The API's refusal of a field (one the form cannot check itself, such as the target), said at that field.
  const refused = refusal?.message ? monitorServerProblem(refusal.message, projectOnly ? "Project" : "Target") : null;
  const shown: FieldProblems = { ...problems };
  if (refused?.field) shown[refused.field] ??= refused.text;
  // A refusal of a field takes the focus to it when it comes, as the form's own problems do when the button is pressed.
  const { problemId, fieldProps } = useFieldProblems(shown, refused?.field ? refusal : attempt);
  // Changing a field takes its problem and the earlier refusal away: they were about what was there then.
  const edited = (f: MonitorField) => {
    if (create.error) create.reset();
    if (update.error) update.reset();
    if (problems[f])
      setProblems((p) => {
        const rest = { ...p };
        delete rest[f];
        return rest;
      });
  };
  const toggle = (t: CheckType, on: boolean) =>
    setTypes((ts) => (on ? CHECK_TYPES.filter((c) => c === t || ts.includes(c)) : ts.filter((c) => c !== t)));
  const set = (k: keyof typeof options) => (e: { target: { value: string } }) => {
    edited(k);
    setOptions((o) => ({ ...o, [k]: e.target.value }));
  };

  return (
    <form
      className="monitor-form"
      onSubmit={(e) => {
        e.preventDefault();
        const found = monitorFormProblems(types, { expiry, ...options });
        setProblems(found);
        setAttempt({});
        if (Object.keys(found).length) return;
        const fields = {
          name: name.trim() || null,
          target: target.trim(),
          checks: toChecks(types, options),
          interval,
          // Left empty, the API's default thresholds apply.
          thresholds: expiry.trim()
            ? {
                tls_expiry_days: expiry
                  .split(/[\s,]+/)
                  .filter(Boolean)
                  .map(Number),
              }
            : undefined,
        };
        if (initial.id) update.mutate({ id: initial.id, ...fields });
        else create.mutate(fields);
      }}
    >
      <label>
        {projectOnly || watchesProject ? "Project" : "Target"}
        <input
          value={target}
          onChange={(e) => {
            edited("target");
            setTarget(e.target.value);
          }}
          placeholder={projectOnly ? "github.com/acme/shop" : "example.com or https://example.com/"}
          required
          {...fieldProps("target")}
        />
        <FieldError id={problemId("target")} text={shown.target} />
        <span className="muted small">
          {watchesProject
            ? "The project's name, as scanned with ?project= (its default ref's package list is checked again each run)."
            : projectOnly
              ? "What the packages belong to: a name such as github.com/acme/shop, or a host."
              : "A host name, domain, IP address (optionally with :port) or a web address."}
        </span>
      </label>
      <label>
        Name (optional)
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} placeholder="Shop front" />
      </label>
      <fieldset>
        <legend>Checks</legend>
        {/* A project is watched from its page (Projects): that check runs alone, on a scanned project. */}
        {CHECK_TYPES.filter((t) => t !== "project").map((t) => (
          <div key={t}>
            <label className="check-option">
              <input type="checkbox" checked={types.includes(t)} onChange={(e) => toggle(t, e.target.checked)} />
              <span>
                {CHECK_WORDS[t].label}
                <span className="muted small"> — {CHECK_WORDS[t].help}</span>
              </span>
            </label>
            {t === "dns" && types.includes("dns") ? (
              <label>
                Record types
                <input
                  value={options.recordTypes}
                  onChange={set("recordTypes")}
                  placeholder="A, AAAA, MX, NS"
                  {...fieldProps("recordTypes")}
                />
                <FieldError id={problemId("recordTypes")} text={shown.recordTypes} />
              </label>
            ) : null}
            {t === "email_security" && types.includes("email_security") ? (
              <label>
                Extra DKIM selectors (optional)
                <input
                  value={options.selectors}
                  onChange={set("selectors")}
                  placeholder="s1, mail"
                  {...fieldProps("selectors")}
                />
                <FieldError id={problemId("selectors")} text={shown.selectors} />
              </label>
            ) : null}
            {t === "packages" && types.includes("packages") ? (
              <label>
                Packages, one per line: ecosystem name version
                <textarea
                  rows={3}
                  value={options.packages}
                  onChange={set("packages")}
                  placeholder="npm lodash 4.17.20"
                  {...fieldProps("packages")}
                />
                <FieldError id={problemId("packages")} text={shown.packages} />
              </label>
            ) : null}
            {t === "tls" && types.includes("tls") ? (
              <label>
                Warn when the certificate expires within (days)
                <input
                  value={expiry}
                  onChange={(e) => {
                    edited("expiry");
                    setExpiry(e.target.value);
                  }}
                  placeholder="21, 7 (the default)"
                  {...fieldProps("expiry")}
                />
                <span className="muted small">The smallest number is a problem, the others a warning.</span>
                <FieldError id={problemId("expiry")} text={shown.expiry} />
              </label>
            ) : null}
          </div>
        ))}
      </fieldset>
      <label>
        Interval
        <select value={interval} onChange={(e) => setInterval(e.target.value as MonitorInterval)}>
          {INTERVALS.map((i) => (
            <option key={i} value={i} disabled={!allowed.includes(i)}>
              {INTERVAL_WORDS[i]}
              {allowed.includes(i) ? "" : " (not on this plan)"}
            </option>
          ))}
        </select>
        {plan && plan.shortest !== "1h" ? (
          <span className="muted small">
            This plan runs monitors {INTERVAL_WORDS[plan.shortest]} at most often; Suite Business and above run them
            every hour.
          </span>
        ) : null}
      </label>
      <Estimate
        id={initial.id}
        checks={types.length}
        interval={interval}
        project={types.includes("project") ? target : undefined}
      />
      <div className="row">
        <BusyButton
          type="submit"
          className="btn btn-primary"
          disabled={types.length === 0}
          busy={pending}
          busyLabel="Saving…"
        >
          {initial.id ? "Save changes" : "Create monitor"}
        </BusyButton>
      </div>
      {Object.keys(problems).length ? (
        <p className="error" role="alert" data-testid="monitor-form-problems">
          Nothing was saved: correct the {Object.keys(problems).length === 1 ? "field" : "fields"} marked above.
        </p>
      ) : null}
      {refusal && !refused?.field ? (
        <ErrorNote
          error={refused && !isUnreachable(refusal) ? { data: refusal.data, message: refused.text } : refusal}
        />
      ) : null}
    </form>
  );
}
