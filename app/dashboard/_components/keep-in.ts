// A ref callback that keeps a list's element in a Map under its row's key while it is mounted, and forgets it when
// React unmounts it (passes null): `ref={keepIn(buttons.current, row.id)}`, so focus can go back to a given row's
// element after an action (RulePacks' headings and "Test first" buttons, BulkJobList's "Open" buttons).
export function keepIn<K, E>(map: Map<K, E>, key: K): (el: E | null) => void {
  return (el) => {
    if (el) map.set(key, el);
    else map.delete(key);
  };
}
