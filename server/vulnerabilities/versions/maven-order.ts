// Maven orders versions with org.apache.maven.artifact.versioning.ComparableVersion. No maintained npm library
// implements it, so this is a port of its algorithm: the version is split into a tree of items (numbers,
// qualifiers, and a nested list after every "-" or digit/letter switch), trailing "null" items (0, "", ga,
// final, release) are dropped, and trees are compared item by item. Qualifier order:
// alpha < beta < milestone < rc = cr < snapshot < "" = ga = final = release < sp < any other (lexically).
type Item = { kind: "int"; value: bigint } | { kind: "string"; value: string } | { kind: "list"; items: Item[] };

const QUALIFIERS = ["alpha", "beta", "milestone", "rc", "snapshot", "", "sp"];
const ALIASES: Record<string, string> = { ga: "", final: "", release: "", cr: "rc" };
const RELEASE_INDEX = String(QUALIFIERS.indexOf(""));

function stringItem(raw: string, followedByDigit: boolean): Item {
  let value = raw;
  if (followedByDigit && value.length === 1) {
    value = ({ a: "alpha", b: "beta", m: "milestone" } as Record<string, string>)[value] ?? value;
  }
  return { kind: "string", value: ALIASES[value] ?? value };
}

function parseItem(isDigit: boolean, buf: string): Item {
  return isDigit ? { kind: "int", value: BigInt(buf) } : stringItem(buf, false);
}

function isNullItem(item: Item): boolean {
  if (item.kind === "int") return item.value === 0n;
  if (item.kind === "string") return item.value === "";
  return item.items.length === 0;
}

function normalize(list: Item[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i];
    if (isNullItem(item)) list.splice(i, 1);
    else if (item.kind !== "list") break;
  }
}

export function parseMavenVersion(version: string): Item {
  const text = version.toLowerCase();
  const root: Item[] = [];
  let list = root;
  const stack: Item[][] = [root];
  let isDigit = false;
  let start = 0;
  const pushList = () => {
    const next: Item[] = [];
    list.push({ kind: "list", items: next });
    list = next;
    stack.push(next);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ".") {
      list.push(i === start ? { kind: "int", value: 0n } : parseItem(isDigit, text.slice(start, i)));
      start = i + 1;
    } else if (c === "-") {
      list.push(i === start ? { kind: "int", value: 0n } : parseItem(isDigit, text.slice(start, i)));
      start = i + 1;
      pushList();
    } else if (c >= "0" && c <= "9") {
      if (!isDigit && i > start) {
        list.push(stringItem(text.slice(start, i), true));
        start = i;
        pushList();
      }
      isDigit = true;
    } else {
      if (isDigit && i > start) {
        list.push(parseItem(true, text.slice(start, i)));
        start = i;
        pushList();
      }
      isDigit = false;
    }
  }
  if (text.length > start) list.push(parseItem(isDigit, text.slice(start)));
  while (stack.length) normalize(stack.pop()!);
  return { kind: "list", items: root };
}

function comparableQualifier(q: string): string {
  const i = QUALIFIERS.indexOf(q);
  return i === -1 ? `${QUALIFIERS.length}-${q}` : String(i);
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares item a with item b, where b may be absent (the shorter version ran out). */
function compareItem(a: Item, b: Item | undefined): number {
  if (a.kind === "int") {
    if (!b) return a.value === 0n ? 0 : 1;
    if (b.kind === "int") return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    return 1;
  }
  if (a.kind === "string") {
    if (!b) return cmpStr(comparableQualifier(a.value), RELEASE_INDEX);
    if (b.kind === "int" || b.kind === "list") return -1;
    return cmpStr(comparableQualifier(a.value), comparableQualifier(b.value));
  }
  if (!b) return a.items.length === 0 ? 0 : compareItem(a.items[0], undefined);
  if (b.kind === "int") return -1;
  if (b.kind === "string") return 1;
  const n = Math.max(a.items.length, b.items.length);
  for (let i = 0; i < n; i++) {
    const l = a.items[i];
    const r = b.items[i];
    const result = l === undefined ? (r === undefined ? 0 : -compareItem(r, undefined)) : compareItem(l, r);
    if (result !== 0) return result;
  }
  return 0;
}

export function compareMaven(a: string, b: string): number {
  return compareItem(parseMavenVersion(a), parseMavenVersion(b));
}

/** ComparableVersion accepts any string; the registry's own strings are what we compare, so only reject blanks. */
export function isValidMaven(version: string): boolean {
  return version.trim().length > 0 && !/\s/.test(version);
}
