// A data feed that ships as a snapshot in the repository (or an npm package) and can be refreshed from its live
// source by `npm run admin -- feeds refresh [--feed NAME]`. A failed refresh keeps the previous data.

export interface FeedDefinition<T> {
  /** Short stable name used by the CLI, e.g. "tor-exits", "kev". */
  name: string;
  description: string;
  /** Licence of the data and the attribution it requires, shown by `feeds status` and in the docs. */
  license: string;
  attribution: string | null;
  /**
   * What the shipped snapshot is and whom it credits, where it is another list than the one a refresh reads (Google's
   * goog.json ships; a refresh reads cloud.json): answers and `feeds status` describe the data in use.
   */
  shipped?: { description: string; attribution: string | null };
  /** Absolute path of the shipped snapshot (in data/ or in node_modules). */
  snapshotPath: string;
  /** Live source to refresh from; null when the feed can only be updated by a new release. */
  sourceUrl(): string | null;
  /** Parses raw bytes (the shipped snapshot or a downloaded copy). Throws on malformed input. */
  parse(raw: Buffer): { data: T; count: number; version?: string | null };
  /** The same as `parse`, yielding to the event loop between slices of a large file (used for a first load). */
  parseAsync?(raw: Buffer): Promise<{ data: T; count: number; version?: string | null }>;
}

export interface FeedState<T> {
  data: T;
  count: number;
  version: string | null;
  /** When the data was fetched from its source (for a shipped snapshot: the file's recorded date). */
  fetchedAt: Date;
  origin: "shipped" | "refreshed";
  sourceUrl: string | null;
}
