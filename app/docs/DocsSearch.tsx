"use client";
// Search over the reference: hides the operations (and their sidebar links) whose text does not hold every word
// typed, and the tag sections and sidebar groups left empty. The page holds each operation's summary line; the
// full text (descriptions included) is fetched once, when the reader first types (/docs/operations).
import { useEffect, useState } from "react";

type Index = Record<string, string>;

export function DocsSearch() {
  const [q, setQ] = useState("");
  const [count, setCount] = useState<number | null>(null);
  const [index, setIndex] = useState<Index | null>(null);

  useEffect(() => {
    if (!q.trim() || index) return;
    let live = true;
    fetch("/docs/operations")
      .then((res) => (res.ok ? (res.json() as Promise<Index>) : null))
      .then((got) => live && got && setIndex(got))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [q, index]);

  useEffect(() => {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    const hits = new Set<string>();
    for (const el of document.querySelectorAll<HTMLElement>("[data-search]")) {
      const text = index?.[el.id] ?? el.dataset.search ?? "";
      const hit = words.every((w) => text.includes(w));
      el.hidden = !hit;
      if (hit) hits.add(el.id);
    }
    // A sidebar link follows its operation.
    for (const link of document.querySelectorAll<HTMLElement>("[data-toc-op]")) {
      link.hidden = !hits.has(link.dataset.tocOp ?? "");
    }
    for (const section of document.querySelectorAll<HTMLElement>("[data-tag-section]")) {
      section.hidden = !section.querySelector("[data-search]:not([hidden])");
    }
    for (const group of document.querySelectorAll<HTMLElement>("[data-toc-group]")) {
      group.hidden = !group.querySelector("[data-toc-op]:not([hidden])");
    }
    setCount(words.length ? hits.size : null);
  }, [q, index]);

  return (
    <div className="docs-search">
      <label htmlFor="docs-search-input" className="visually-hidden">
        Search the API reference
      </label>
      <input
        id="docs-search-input"
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="Search endpoints…"
        data-testid="docs-search"
      />
      {count !== null ? (
        <p className="small muted" role="status" data-testid="docs-search-count">
          {count} endpoint{count === 1 ? "" : "s"} match
        </p>
      ) : null}
    </div>
  );
}
