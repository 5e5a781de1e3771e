// What the reference lists and what one operation's details need, from the OpenAPI document. The page lists
// operations only (method, path, summary, facts); each operation's details are fetched when opened
// (operations/[id]/route.ts) as a slice of the document: the operation and the schemas it refers to. That keeps
// the page small (issue 22: a 2.4 MB page of 16,000 nodes took seconds to load).
type Json = Record<string, any>;
const METHODS = ["get", "post", "put", "patch", "delete"];

export interface ListedOperation {
  id: string;
  method: string;
  path: string;
  op: Json;
}

export function operationId(method: string, path: string): string {
  return `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** What the search box matches an operation against at first: the words of its summary line. */
export function searchText(method: string, path: string, op: Json): string {
  return `${method} ${path} ${op.summary ?? ""} ${op.tags?.join(" ") ?? ""}`.toLowerCase();
}

/** The full text, descriptions included, fetched by the search box when a reader first types (operations/route.ts). */
export function searchIndex(doc: Json): Record<string, string> {
  return Object.fromEntries(
    listedOperations(doc).map(({ id, method, path, op }) => [
      id,
      `${searchText(method, path, op)} ${op.description ?? ""}`.toLowerCase(),
    ]),
  );
}

/**
 * A second spelling of a path that already has its operation (the spec writes POST /v1/captcha/test next to paths
 * relative to the /v1 base, so the server answers both): the reference lists the operation once, at its path.
 */
function isAlias(doc: Json, path: string): boolean {
  return path.startsWith("/v1/") && Boolean(doc.paths?.[path.slice(3)]);
}

export function listedOperations(doc: Json): ListedOperation[] {
  const out: ListedOperation[] = [];
  for (const [path, ops] of Object.entries<Json>(doc.paths ?? {})) {
    if (isAlias(doc, path)) continue;
    for (const method of METHODS) {
      if (ops[method]) out.push({ id: operationId(method, path), method, path, op: ops[method] });
    }
  }
  return out;
}

/** Operations by their first tag, tags in alphabetical order; "Domain" and "Domains" are one section. */
export function groupByTag(doc: Json): [string, ListedOperation[]][] {
  const groups = new Map<string, ListedOperation[]>();
  for (const listed of listedOperations(doc)) {
    const tag = listed.op.tags?.[0] ?? "Other";
    groups.set(tag, [...(groups.get(tag) ?? []), listed]);
  }
  for (const tag of [...groups.keys()]) {
    const singular = tag.slice(0, -1);
    if (tag.endsWith("s") && groups.has(singular)) {
      groups.get(singular)!.push(...groups.get(tag)!);
      groups.delete(tag);
    }
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** A path with servers of its own (the badge) is served at the site root, not under /v1. */
export function baseOf(doc: Json, path: string): string {
  return doc.paths?.[path]?.servers ? "" : "/v1";
}

export interface OperationSlice {
  id: string;
  method: string;
  path: string;
  base: string;
  op: Json;
  /** A document holding only the schemas the operation refers to, for resolveRef. */
  doc: { components: { schemas: Json } };
}

function refsOf(value: unknown, into: Set<string>): void {
  if (!value || typeof value !== "object") return;
  if (Array.isArray(value)) return value.forEach((v) => refsOf(v, into));
  for (const [k, v] of Object.entries(value)) {
    if (k === "$ref" && typeof v === "string") into.add(v.replace(/^#\/components\/schemas\//, ""));
    else refsOf(v, into);
  }
}

export function operationSlice(doc: Json, id: string): OperationSlice | null {
  const listed = listedOperations(doc).find((o) => o.id === id);
  if (!listed) return null;
  const all: Json = doc.components?.schemas ?? {};
  const names = new Set<string>();
  refsOf(listed.op, names);
  const schemas: Json = {};
  // Schemas refer to schemas: follow them until nothing new appears.
  for (let added = true; added;) {
    added = false;
    for (const name of names) {
      if (schemas[name] || !all[name]) continue;
      schemas[name] = all[name];
      refsOf(all[name], names);
      added = true;
    }
  }
  return { ...listed, base: baseOf(doc, listed.path), doc: { components: { schemas } } };
}
