"use client";
// A page reached from another page of the dashboard (a link, a search's Open) puts the keyboard's focus on its
// heading: the pressed link or button went away with the page it was on, and the focus would fall to the page's top.
// A page loaded by the browser (typed address, reload, bookmark) leaves the focus where the browser puts it, at the
// document's start, as on any website: its first render is React's hydration of the server's HTML, which is how it
// is told apart. A refresh of the page's data renders again without moving the focus; a new `key` (another account
// opened in the same view) moves it again.
import { useEffect, useRef, useSyncExternalStore, type RefObject } from "react";

const noSubscription = () => () => {};

export function useFocusOnArrival<T extends HTMLElement>(key: unknown): RefObject<T | null> {
  const target = useRef<T>(null);
  // True only while the server's HTML is being hydrated (React reads the server snapshot then).
  const hydrating = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
  const loadedByBrowser = useRef(hydrating);
  const firstKey = useRef(key);
  useEffect(() => {
    if (loadedByBrowser.current && Object.is(key, firstKey.current)) return;
    target.current?.focus();
  }, [key]);
  return target;
}
