// A small in-process TTL cache for upstream answers, with in-flight sharing: concurrent lookups of the same key
// make one upstream call. Failures are never cached, so a recovered source is used at once. An entry whose time ran
// out is not served, but it is kept (until the size bound pushes it out) so that its loader can revalidate it: an
// upstream answer stored with its ETag or Last-Modified is asked for again conditionally, and a 304 keeps the parsed
// value as it is (http.ts).
type Entry<T> = { value: T; expiresAt: number };

// Room for a whole dependency scan (5,000 package versions: a registry document and an OSV record or two each) and
// then some, so a scan does not evict its own answers before a repeat; registry documents are kept trimmed.
const MAX_ENTRIES = 12_000;

export class TtlCache<T> {
  private entries = new Map<string, Entry<T>>();
  private inflight = new Map<string, Promise<T>>();

  /** The value while its time lasts; undefined when absent or expired (an expired entry stays for `stale`). */
  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e || e.expiresAt <= Date.now()) return undefined;
    return e.value;
  }

  /** The value whatever its age: what a revalidation starts from. */
  stale(key: string): T | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: T, ttlMs: number): void {
    // Re-inserted at the end: the bound pushes out the entry stored or refreshed longest ago.
    if (!this.entries.delete(key) && this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + ttlMs });
  }

  /**
   * Returns the live value, or runs load once for all concurrent callers, handing it the expired value when one is
   * kept; `keep` decides what is stored (what it refuses leaves the expired entry in place for the next try).
   */
  async getOrLoad(
    key: string,
    ttlMs: number | (() => number),
    load: (stale: T | undefined) => Promise<T>,
    keep: (v: T) => boolean,
  ): Promise<{ value: T; cached: boolean }> {
    const hit = this.get(key);
    if (hit !== undefined) return { value: hit, cached: true };
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = load(this.stale(key)).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const value = await pending;
    // The time is read only when something is stored: a hit costs no setting read.
    if (keep(value)) this.set(key, value, typeof ttlMs === "function" ? ttlMs() : ttlMs);
    return { value, cached: false };
  }

  /** Ends every entry's time now, keeping the values for revalidation (tests and the benchmark). */
  expireAll(): void {
    for (const e of this.entries.values()) e.expiresAt = 0;
  }

  clear(): void {
    this.entries.clear();
  }
}
