// SPF (RFC 7208): parse the record, follow include and redirect, and count the DNS-querying terms against the
// limit of 10 (section 4.6.4). Past the limit receivers return permerror, and the domain's mail fails SPF.
import { fetchPolicyTxt } from "./txt";

export const SPF_LOOKUP_LIMIT = 10;
export const SPF_VOID_LOOKUP_LIMIT = 2;
const MAX_FETCHES = 25; // our own bound: never chase more than this many records for one answer

export type Qualifier = "+" | "-" | "~" | "?";
export interface SpfTerm {
  qualifier: Qualifier | null;
  mechanism: string;
  value: string | null;
}
export interface SpfInclude {
  domain: string;
  via: "include" | "redirect";
  depth: number;
  record: string | null;
  lookups: number;
  error: string | null;
}
export interface SpfParsed {
  mechanisms: SpfTerm[];
  modifiers: { name: string; value: string }[];
  errors: string[];
}

const MECHANISMS = new Set(["all", "include", "a", "mx", "ptr", "ip4", "ip6", "exists"]);
const COUNTED = new Set(["include", "a", "mx", "ptr", "exists"]);

export function parseSpf(record: string): SpfParsed {
  const terms = record.trim().split(/\s+/).slice(1);
  const out: SpfParsed = { mechanisms: [], modifiers: [], errors: [] };
  for (const term of terms) {
    const mod = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(term);
    if (mod) {
      out.modifiers.push({ name: mod[1].toLowerCase(), value: mod[2] });
      continue;
    }
    const m = /^([+\-~?]?)([a-z0-9]+)(?:[:/](.*))?$/i.exec(term);
    const name = m?.[2].toLowerCase();
    if (!m || !name || !MECHANISMS.has(name)) {
      out.errors.push(`Unknown term "${term}" (permerror).`);
      continue;
    }
    const value = term.includes(":")
      ? term.slice(term.indexOf(":") + 1)
      : term.includes("/")
        ? term.slice(term.indexOf("/"))
        : null;
    if ((name === "include" || name === "exists" || name === "ip4" || name === "ip6") && !value) {
      out.errors.push(`"${term}" needs a value (permerror).`);
    }
    out.mechanisms.push({ qualifier: (m[1] || null) as Qualifier | null, mechanism: name, value });
  }
  if (out.modifiers.filter((x) => x.name === "redirect").length > 1)
    out.errors.push("More than one redirect= modifier (permerror).");
  return out;
}

export function countedLookups(p: SpfParsed): number {
  return (
    p.mechanisms.filter((m) => COUNTED.has(m.mechanism)).length +
    p.modifiers.filter((m) => m.name === "redirect").length
  );
}

export interface SpfTree {
  lookups: number;
  voidLookups: number;
  includes: SpfInclude[];
}

/** Walks include: and redirect= breadth-first, counting every DNS-querying term of every record reached. */
export async function walkSpf(domain: string, parsed: SpfParsed): Promise<SpfTree> {
  const tree: SpfTree = { lookups: countedLookups(parsed), voidLookups: 0, includes: [] };
  const seen = new Set([domain]);
  let frontier = targets(parsed).map((t) => ({ ...t, depth: 1 }));
  let fetches = 0;
  while (frontier.length > 0 && fetches < MAX_FETCHES) {
    const batch = frontier.filter((t) => !seen.has(t.domain)).slice(0, MAX_FETCHES - fetches);
    batch.forEach((t) => seen.add(t.domain));
    fetches += batch.length;
    const results = await Promise.all(
      batch.map(async (t) => ({ t, txt: await fetchPolicyTxt(t.domain, /^v=spf1(\s|$)/i) })),
    );
    const next: typeof frontier = [];
    for (const { t, txt } of results) {
      const inc: SpfInclude = {
        domain: t.domain,
        via: t.via,
        depth: t.depth,
        record: txt.matches[0] ?? null,
        lookups: 0,
        error: null,
      };
      if (!txt.answered) inc.error = `DNS lookup failed (${txt.query.status}); receivers would return temperror.`;
      else if (txt.matches.length === 0) {
        inc.error = `No SPF record at ${t.domain}: the ${t.via} is a permerror.`;
        if (txt.query.status !== "NOERROR") tree.voidLookups++;
      } else if (txt.matches.length > 1) inc.error = `Multiple SPF records at ${t.domain} (permerror).`;
      else {
        const p = parseSpf(txt.matches[0]);
        inc.lookups = countedLookups(p);
        tree.lookups += inc.lookups;
        if (p.errors.length) inc.error = p.errors.join(" ");
        next.push(...targets(p).map((x) => ({ ...x, depth: t.depth + 1 })));
      }
      tree.includes.push(inc);
    }
    frontier = next;
  }
  return tree;
}

function targets(p: SpfParsed): { domain: string; via: "include" | "redirect" }[] {
  const out: { domain: string; via: "include" | "redirect" }[] = [];
  for (const m of p.mechanisms)
    if (m.mechanism === "include" && m.value && !m.value.includes("%"))
      out.push({ domain: m.value.toLowerCase().replace(/\.$/, ""), via: "include" });
  for (const m of p.modifiers)
    if (m.name === "redirect" && !m.value.includes("%"))
      out.push({ domain: m.value.toLowerCase().replace(/\.$/, ""), via: "redirect" });
  return out;
}
