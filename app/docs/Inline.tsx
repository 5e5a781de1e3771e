// Just enough Markdown for the API descriptions: `code`, **bold**, bare URLs, and paragraphs.
import { Fragment, type ReactNode } from "react";
import { forUsers } from "../dashboard/_components/answers/user-text";

const TOKEN = /(`[^`]+`|\*\*[^*]+\*\*|https?:\/\/[^\s),]+)/g;

/** Text for API users: operator instructions (how the service is run) are left out. */
export function Inline({ text }: { text: string }) {
  const parts = forUsers(text).split(TOKEN);
  return (
    <>
      {parts.map((p, i): ReactNode => {
        if (p.startsWith("`") && p.endsWith("`") && p.length > 1) return <code key={i}>{p.slice(1, -1)}</code>;
        if (p.startsWith("**") && p.endsWith("**") && p.length > 3) return <strong key={i}>{p.slice(2, -2)}</strong>;
        if (/^https?:\/\//.test(p)) {
          return (
            <a key={i} href={p}>
              {p}
            </a>
          );
        }
        return <Fragment key={i}>{p}</Fragment>;
      })}
    </>
  );
}

export function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\s*\n/).map((para, i) => (
        <p key={i}>
          <Inline text={para.replace(/\s*\n\s*/g, " ")} />
        </p>
      ))}
    </>
  );
}
