"use client";
// What an action just did, said in a status line that takes the keyboard's focus: for the actions whose button goes
// away with what they removed (remove a member, revoke a key, delete a list or a rule), where the focus would
// otherwise drop to the page's top. A delete on a detail page (a webhook, a monitor) sends the user to its list:
// carryDoneNotice leaves the words for that page, whose notice says them on arrival and takes the focus there; a
// new item's form sends the user to the item's page the same way (a monitor created).
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";

/** Words for the page the app goes to next, by its path; that page's useDoneNotice takes them once. */
const carried = new Map<string, string>();

/** Says `text` on the page at `path` (say, the list a deleted item's page sends the user back to) once it is shown. */
export function carryDoneNotice(path: string, text: string): void {
  carried.set(path, text);
}

export function useDoneNotice(testId = "done-notice") {
  // An object per saying, so the same words said twice take the focus twice. A saying without the focus (a rule
  // moved or saved) leaves it where it is: on the button pressed, which is still there.
  const [said, setSaid] = useState<{ text: string; focus: boolean } | null>(null);
  const line = useRef<HTMLParagraphElement | null>(null);
  // A saying whose line is not shown yet (the page it was carried to still loading what it shows the line with)
  // takes the focus when the line appears, not never.
  const focusOnShow = useRef(false);
  const showLine = useCallback((el: HTMLParagraphElement | null) => {
    line.current = el;
    if (el && focusOnShow.current) {
      focusOnShow.current = false;
      el.focus();
    }
  }, []);
  const path = usePathname();
  useEffect(() => {
    const text = carried.get(path);
    if (text === undefined) return;
    carried.delete(path);
    setSaid({ text, focus: true });
  }, [path]);
  useEffect(() => {
    focusOnShow.current = false;
    if (!said?.focus) return;
    if (line.current) line.current.focus();
    else focusOnShow.current = true;
  }, [said]);
  return {
    say: (text: string, { focus = true }: { focus?: boolean } = {}) => setSaid({ text, focus }),
    clear: () => setSaid(null),
    notice: said ? (
      <p className="notice" role="status" tabIndex={-1} ref={showLine} data-testid={testId}>
        {said.text}
      </p>
    ) : null,
  };
}
