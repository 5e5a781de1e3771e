"use client";
// A secret shown here once and never again (a new API key's plaintext, of which only a hash is stored; a webhook's
// signing secret). The box takes focus when it appears, so a screen reader says it (a region named by its first
// sentence, then the secret) and the next Tab reaches its copy button: after "Create key" the focus would otherwise
// stay on that button (or, where the form is made anew for the next one, fall to the page's top), and nothing would
// say that a secret the user must copy now had appeared.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { CopyButton } from "./CopyButton";

export function ShownOnce({
  secret,
  title,
  copyLabel,
  testId,
  secretTestId,
  children,
}: {
  secret: string;
  /** The box's first sentence, which names it. */
  title: ReactNode;
  copyLabel: string;
  testId: string;
  secretTestId: string;
  /** Said under the secret. */
  children?: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => box.current?.focus(), [secret]);
  return (
    <div className="shown-once" data-testid={testId} role="region" aria-labelledby={titleId} tabIndex={-1} ref={box}>
      <p className="small" id={titleId}>
        {title}
      </p>
      <div className="row">
        <code data-testid={secretTestId} className="key-plaintext">
          {secret}
        </code>
        <CopyButton text={secret} label={copyLabel} />
      </div>
      {children}
    </div>
  );
}

export function ShownOnceKey({ apiKey }: { apiKey: string }) {
  return (
    <ShownOnce
      secret={apiKey}
      title={
        <>
          <strong>Copy this key now.</strong> It is shown only once; the service keeps only a hash of it.
        </>
      }
      copyLabel="Copy key"
      testId="shown-once-key"
      secretTestId="new-api-key"
    />
  );
}
