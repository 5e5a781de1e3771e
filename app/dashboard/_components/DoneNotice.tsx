"use client";
// What an action just did, said in a status line that takes the keyboard's focus: for the actions whose button goes
// away with what they removed (remove a member, revoke a key, delete a list), where the focus would otherwise drop to
// the page's top. The Rules page does the same for a deleted rule with its own notice line. A delete on a detail page (a webhook, a monitor) sends the user to its list:
// carryDoneNotice leaves the words for that page, whose notice says them on arrival and takes the focus there.
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/** Words for the page the app goes to next, by its path; that page's useDoneNotice takes them once. */
const carried = new Map<string, string>();

/** Says `text` on the page at `path` (say, the list a deleted item's page sends the user back to) once it is shown. */
export function carryDoneNotice(path: string, text: string): void {
  carried.set(path, text);
}

export function useDoneNotice(testId = "done-notice") {
  // An object per saying, so the same words said twice take the focus twice.
  const [said, setSaid] = useState<{ text: string } | null>(null);
  const line = useRef<HTMLParagraphElement>(null);
  const path = usePathname();
  useEffect(() => {
    const text = carried.get(path);
    if (text === undefined) return;
    carried.delete(path);
    setSaid({ text });
  }, [path]);
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
