// What a person who clicks a protected link that no longer leads anywhere sees in a browser: a page in the product's
// look that says what happened in words, with the HTTP status kept for crawlers and scripts (404 or 410). The JSON
// error stays the answer for API clients (server/links/redirect.ts chooses by the Accept header).
const TEXT = {
  NOT_FOUND: {
    title: "This link does not exist",
    body: "The address may be mistyped, or the link was never created. Check it with whoever sent it to you.",
  },
  LINK_EXPIRED: {
    title: "This link has expired",
    body: "Whoever made it gave it an end date, and that date has passed. Ask them for a new link.",
  },
  LINK_DISABLED: {
    title: "This link has been turned off",
    body: "Its owner disabled it, so it no longer leads anywhere. If you expected it to work, ask whoever sent it to you.",
  },
} as const;

export type VisitorRefusal = keyof typeof TEXT;

// Inline, so the page needs no other request; the colours and type are the dashboard's (app/globals.css).
const STYLE = `
  :root { color-scheme: light; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1.5rem; box-sizing: border-box;
    font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #111827; background: #f8fafc; }
  main { max-width: 32rem; background: #fff; border: 1px solid #e5e7eb; border-radius: 12px; padding: 2rem;
    box-shadow: 0 1px 2px rgba(0, 0, 0, 0.04); }
  h1 { font-size: 1.35rem; margin: 0 0 0.75rem; }
  p { line-height: 1.5; margin: 0 0 0.75rem; }
  .muted { color: #6b7280; font-size: 0.875rem; margin: 0; }
`;

export function visitorPage(code: VisitorRefusal): string {
  const t = TEXT[code];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${t.title}</title><style>${STYLE}</style></head><body><main><h1>${t.title}</h1><p>${t.body}</p><p class="muted">Protected link by Security Intelligence</p></main></body></html>`;
}
