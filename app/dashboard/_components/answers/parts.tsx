// Small pieces the answer cards share: a risk badge, a country with its flag, a fact list.
import type { ReactNode } from "react";
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

/** The flag emoji of an ISO 3166 alpha-2 code, from the regional indicator letters. */
export function flagEmoji(code: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return "";
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

export function Country({ code, name }: { code: string | null | undefined; name?: string | null }) {
  if (!code) return <span className="muted">country unknown</span>;
  return (
    <span data-testid="answer-country">
      <span aria-hidden="true">{flagEmoji(code)}</span> {name ? `${name} (${code})` : code}
    </span>
  );
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
