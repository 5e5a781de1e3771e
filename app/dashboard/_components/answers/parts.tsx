// Small pieces the answer cards share: a risk badge, a country by its name, a fact list.
import type { ReactNode } from "react";
import { countryName } from "../../../../server/countries";
import { forUsers } from "./user-text";

export type Json = Record<string, any>;

export function RiskBadge({ level, score }: { level: string | null | undefined; score?: number | null }) {
  if (!level) return null;
  return (
    <span className={`badge risk-${level}`} data-testid="answer-risk">
      {level} risk{typeof score === "number" ? ` (${score})` : ""}
    </span>
  );
}

// No flag emoji: without an emoji font (many Linux desktops, and Windows, which has no flags) it showed as empty boxes
// or as the code's letters twice. The name comes from the platform's region data, the same on the server and in the
// browser (server/countries.ts).
export function Country({ code, name }: { code: string | null | undefined; name?: string | null }) {
  if (!code) return <span className="muted">country unknown</span>;
  const shown = name || countryName(code);
  return <span data-testid="answer-country">{shown ? `${shown} (${code})` : code}</span>;
}

export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  const shown = rows.filter(([, v]) => v !== null && v !== undefined && v !== "");
  return (
    <dl className="facts">
      {shown.map(([k, v]) => (
        <div key={k} className="fact">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Reasons({
  items,
}: {
  items: { code?: string; signal?: string; reason?: string; message?: string; points?: number; weight?: number }[];
}) {
  if (!items?.length) return null;
  return (
    <ul className="answer-reasons small">
      {items.map((r, i) => (
        <li key={i}>
          <Prose text={forUsers(r.reason ?? r.message ?? r.code ?? r.signal ?? "")} />
        </li>
      ))}
    </ul>
  );
}

export function Why({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  const clean = forUsers(text);
  return clean ? (
    <p className="muted small">
      <Prose text={clean} />
    </p>
  ) : null;
}

/** Text from the API's descriptions and reasons, whose `backticked` names are shown as code, not as backticks. */
export function Prose({ text }: { text: string }) {
  const parts = text.split(/`([^`\n]+)`/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
