// The in-process index rules test lists with: per workspace, a Map per list for exact values and, for ip lists,
// one Map per prefix length present, so `in_list` costs one Map probe per distinct prefix length (at most 33 for
// IPv4, 129 for IPv6) whatever the list's size. The index is rebuilt only when the lists' version token (read in
// the statement /assess already runs, see versionTokenSql) changes; expiry is checked at match time, so an
// expired item stops matching at once, before the retention purge deletes it.
import type { Db } from "../db/client";
import { canonicalEmail } from "../email/canonical";
import { ipv4ToInt, ipv6ToBigInt, parseCidr } from "../net/ip-parse";
import { normaliseValue, type ListKind } from "./values";

type Expiry = number | null;
interface ListIndex {
  kind: ListKind;
  exact: Map<string, Expiry>;
  v4: Map<number, Map<number, Expiry>>;
  v6: Map<number, Map<bigint, Expiry>>;
}
export type ListLookup = (name: string, value: unknown) => boolean;

const live = (e: Expiry | undefined, now: number) => e !== undefined && (e === null || e > now);
/** The later of two expiries (null: never expires); `a` may be absent. */
const longer = (a: Expiry | undefined, b: Expiry): Expiry =>
  a === undefined ? b : a === null || b === null ? null : Math.max(a, b);

/**
 * The key an item or a tested value is indexed under: its normalised text, and for an email its canonical mailbox, so
 * an item "alice@gmail.com" matches "A.Lice+1@googlemail.com" and every other spelling (server/email/canonical.ts).
 * The item is still stored and shown as it was added.
 */
function matchKey(kind: ListKind, value: string): string {
  return kind === "email" ? canonicalEmail(value).normalized : value;
}

function probe(list: ListIndex, value: unknown, now: number): boolean {
  const n = normaliseValue(list.kind, value);
  if (!n.ok || n.value.includes("/")) return false;
  if (live(list.exact.get(matchKey(list.kind, n.value)), now)) return true;
  if (list.kind !== "ip") return false;
  // An IPv4-mapped address arrives as the IPv4 address it names (values.ts), so it is tested against IPv4 ranges
  // only: an IPv6 range that merely contains the mapped block (::/0) means IPv6 clients, as it did before.
  if (!n.value.includes(":")) {
    const a = ipv4ToInt(n.value);
    for (const [prefix, starts] of list.v4) {
      const size = 2 ** (32 - prefix);
      if (live(starts.get(a - (a % size)), now)) return true;
    }
    return false;
  }
  const a = ipv6ToBigInt(n.value);
  if (a === null) return false;
  for (const [prefix, starts] of list.v6) {
    const host = (1n << BigInt(128 - prefix)) - 1n;
    if (live(starts.get(a & ~host), now)) return true;
  }
  return false;
}

function add(list: ListIndex, stored: string, expiry: Expiry) {
  // Stored before IPv4-mapped items were unmapped (the migration rewrote them; this keeps any other writer honest).
  const value = list.kind === "ip" ? unmappedItem(stored) : stored;
  if (list.kind !== "ip" || !value.includes("/")) {
    // Two spellings of one mailbox share a key: the item that lives longer decides.
    const key = matchKey(list.kind, value);
    return void list.exact.set(key, longer(list.exact.get(key), expiry));
  }
  const r = parseCidr(value);
  if (!r) return;
  if (r.version === 4) {
    if (!list.v4.has(r.prefix)) list.v4.set(r.prefix, new Map());
    list.v4.get(r.prefix)!.set(r.start, expiry);
  } else {
    if (!list.v6.has(r.prefix)) list.v6.set(r.prefix, new Map());
    list.v6.get(r.prefix)!.set(r.start, expiry);
  }
}

function unmappedItem(value: string): string {
  const n = normaliseValue("ip", value);
  return n.ok ? n.value : value;
}

/** A lookup over lists already loaded (name -> index); unknown names match nothing. */
export function lookupOver(lists: Map<string, ListIndex>, now = Date.now()): ListLookup {
  return (name, value) => {
    const list = lists.get(name);
    return list ? probe(list, value, now) : false;
  };
}

/** Reads a workspace's lists and live items (one statement) into an index. */
export async function loadIndex(db: Db, workspaceId: string): Promise<Map<string, ListIndex>> {
  const rows = await db.$queryRawUnsafe<ListRow[]>(
    `SELECT l."name", l."kind", i."value", i."expiresAt" FROM "NamedList" l
       LEFT JOIN "NamedListItem" i ON i."listId" = l."id" AND (i."expiresAt" IS NULL OR i."expiresAt" > now())
      WHERE l."workspaceId" = $1`,
    workspaceId,
  );
  return indexLists(rows);
}

/** One list's item (value null: a list without items), as stored. */
export type ListRow = { name: string; kind: string; value: string | null; expiresAt: Date | null };

/** The index of lists' rows (the benchmark's bare reference builds it from rows in memory). */
export function indexLists(rows: readonly ListRow[]): Map<string, ListIndex> {
  const lists = new Map<string, ListIndex>();
  for (const r of rows) {
    let list = lists.get(r.name);
    if (!list) {
      list = { kind: r.kind as ListKind, exact: new Map(), v4: new Map(), v6: new Map() };
      lists.set(r.name, list);
    }
    if (r.value !== null) add(list, r.value, r.expiresAt ? new Date(r.expiresAt).getTime() : null);
  }
  return lists;
}

/**
 * One text that changes whenever any list of the workspace (id `workspaceParam`) or its items change: to be read
 * in a statement the caller already runs.
 */
export function versionTokenSql(workspaceParam: string): string {
  return `(SELECT coalesce(string_agg(l."id" || ':' || l."version", ',' ORDER BY l."id"), '')
      FROM "NamedList" l WHERE l."workspaceId" = ${workspaceParam})`;
}

const CACHE_MAX = 500;
const cache = new Map<string, { token: string; lists: Map<string, ListIndex> }>();

/**
 * The lookup for a workspace whose current version token is `token`: from memory when the token is the one the
 * index was built at, else rebuilt. No query at all when the workspace has no list.
 */
export async function listLookup(db: Db, workspaceId: string, token: unknown): Promise<ListLookup> {
  const t = typeof token === "string" ? token : "";
  if (t === "") return lookupOver(new Map());
  let hit = cache.get(workspaceId);
  if (!hit || hit.token !== t) {
    hit = { token: t, lists: await loadIndex(db, workspaceId) };
    cache.delete(workspaceId);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(workspaceId, hit);
  }
  return lookupOver(hit.lists);
}

/** For a backtest or a caller without a token: the current lists, read now. */
export async function currentLookup(db: Db, workspaceId: string): Promise<ListLookup> {
  return lookupOver(await loadIndex(db, workspaceId));
}
