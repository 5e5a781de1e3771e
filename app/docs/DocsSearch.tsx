"use client";
// Search over the reference: hides the operations (and their sidebar links) whose text does not hold every word
// typed, and the tag sections left empty. The page itself is rendered on the server; this only filters it.
import { useEffect, useState } from "react";

export function DocsSearch() {
  const [q, setQ] = useState("");
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const el of document.querySelectorAll<HTMLElement>("[data-search]")) {
      const hit = words.every((w) => (el.dataset.search ?? "").includes(w));
      el.hidden = !hit;
      if (hit && el.dataset.testid === "operation") shown++;
    }
    for (const section of document.querySelectorAll<HTMLElement>("[data-tag-section]")) {
      section.hidden = !section.querySelector("[data-search]:not([hidden])");
    }
    for (const group of document.querySelectorAll<HTMLElement>("[data-toc-group]")) {
      group.hidden = !group.querySelector("[data-search]:not([hidden])");
    }
    setCount(words.length ? shown : null);
  }, [q]);
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
