// A small in-process TTL cache for upstream answers, with in-flight sharing: concurrent lookups of the same key
// make one upstream call. Failures are never cached, so a recovered source is used at once.
type Entry<T> = { value: T; expiresAt: number };

// Room for a whole dependency scan (5,000 package versions: a registry document and an OSV record or two each) and
// then some, so a scan does not evict its own answers before a repeat; registry documents are kept trimmed.
const MAX_ENTRIES = 12_000;

export class TtlCache<T> {
  private entries = new Map<string, Entry<T>>();
  private inflight = new Map<string, Promise<T>>();

  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, value: T, ttlMs: number): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + ttlMs });
  }

  /** Returns the cached value, or runs load once for all concurrent callers; `keep` decides what is cached. */
  async getOrLoad(
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
    keep: (v: T) => boolean,
  ): Promise<{ value: T; cached: boolean }> {
    const hit = this.get(key);
    if (hit !== undefined) return { value: hit, cached: true };
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = load().finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const value = await pending;
    if (keep(value)) this.set(key, value, ttlMs);
    return { value, cached: false };
  }

  clear(): void {
    this.entries.clear();
  }
}
