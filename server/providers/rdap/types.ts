// Shapes shared by the RDAP lookups.

export type RdapLookup<T> =
  { status: "ok"; data: T } | { status: "not_found"; reason: string } | { status: "unavailable"; reason: string };

export interface RdapSource {
  /** Base URL of the RDAP server that answered (from the IANA bootstrap unless overridden by configuration). */
  rdapServer: string;
  registry: string;
  /** The exact URL queried (after redirects). */
  url: string;
  fetchedAt: string;
  /** The bootstrap registry that named the server, with its publication date; null when configured directly. */
  bootstrap: { name: string; publication: string | null } | null;
}
