"use client";
// What an action just did, said in a status line that takes the keyboard's focus: for the actions whose button goes
// away with what they removed (remove a member, revoke a key, delete a list), where the focus would otherwise drop to
// the page's top. The Rules page does the same for a deleted rule with its own notice line.
import { useEffect, useRef, useState } from "react";

export function useDoneNotice(testId = "done-notice") {
  // An object per saying, so the same words said twice take the focus twice.
  const [said, setSaid] = useState<{ text: string } | null>(null);
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (said) line.current?.focus();
  }, [said]);
  return {
    say: (text: string) => setSaid({ text }),
    clear: () => setSaid(null),
    notice: said ? (
      <p className="notice" role="status" tabIndex={-1} ref={line} data-testid={testId}>
        {said.text}
      </p>
    ) : null,
  };
}
