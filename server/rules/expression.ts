// Rule expressions in CEL (Common Expression Language) through @marcbachmann/cel-js: a side-effect-free,
// non-Turing-complete language with a type checker, so a rule is checked against the fact table (./facts.ts) when
// it is saved and its cost is bounded when it runs. Beyond CEL's own limits we refuse what could make one
// evaluation expensive: regular expressions (`matches`, whose backtracking has no bound), `cel.bind` (doubling a
// value at each level) and comprehensions over anything but a fact's list, nested more than twice.
import { Environment, type ASTNode } from "@marcbachmann/cel-js";
import { ipInCidr } from "../net/ip";
import { parseCidr } from "../net/ip-parse";
import { CONDITION_FIELDS, countryValueProblem, ruleAddress } from "./conditions";
import { FACT_NAMES, FACTS, type FactName } from "./facts";

export const MAX_EXPRESSION_LENGTH = 4000;
const MAX_COMPREHENSION_DEPTH = 2;
const COMPREHENSIONS = new Set(["all", "exists", "exists_one", "map", "filter"]);
/** Lists a comprehension may range over: the fact lists, a few dozen entries at most. */
const LIST_FACTS = new Set(FACT_NAMES.filter((n) => FACTS[n].type === "list<string>"));

function cidrList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

function buildEnvironment(): Environment {
  const env = new Environment({
    limits: { maxAstNodes: 1500, maxDepth: 60, maxListElements: 500, maxMapEntries: 100, maxCallArguments: 8 },
  });
  const groups = new Map<string, Record<string, string>>();
  for (const name of FACT_NAMES) {
    const dot = name.indexOf(".");
    if (dot < 0) {
      env.registerVariable(name, FACTS[name].type, { description: FACTS[name].doc });
    } else {
      const group = name.slice(0, dot);
      if (!groups.has(group)) groups.set(group, {});
      groups.get(group)![name.slice(dot + 1)] = FACTS[name].type;
    }
  }
  for (const [group, schema] of groups) env.registerVariable({ name: group, schema });
  // Ranges are read by the one CIDR parser, with the same trimming and canonical form as a saved condition.
  env.registerFunction({
    name: "inCidr",
    receiverType: "string",
    returnType: "bool",
    params: [{ name: "cidr", type: "string" }],
    handler: (ip: string, c: string) => ipInCidr(ip, c),
  });
  env.registerFunction({
    name: "inCidr",
    receiverType: "string",
    returnType: "bool",
    params: [{ name: "cidrs", type: "list<string>" }],
    handler: (ip: string, list: unknown) => cidrList(list).some((c) => ipInCidr(ip, c)),
  });
  // in_list("name", value): membership in one of the workspace's named lists (server/lists), through the lookup
  // the caller installs for the evaluation (withListLookup); with none installed nothing is in any list.
  for (const type of ["string", "int"] as const) {
    env.registerFunction({
      name: "in_list",
      returnType: "bool",
      params: [
        { name: "list", type: "string" },
        { name: "value", type },
      ],
      handler: (name: string, value: unknown) => currentLookup?.(name, value) ?? false,
    });
  }
  return env;
}

type ListLookup = (name: string, value: unknown) => boolean;
let currentLookup: ListLookup | null = null;

/** Runs `fn` (synchronous: an evaluation) with `lookup` answering in_list. */
export function withListLookup<T>(lookup: ListLookup | undefined, fn: () => T): T {
  if (!lookup) return fn();
  const previous = currentLookup;
  currentLookup = lookup;
  try {
    return fn();
  } finally {
    currentLookup = previous;
  }
}

/** The list names an expression tests with in_list (each a string literal, checked when it is compiled). */
export function listNamesIn(source: string): string[] {
  if (!source.includes("in_list")) return [];
  let ast: ASTNode;
  try {
    ast = celEnvironment().parse(source).ast;
  } catch {
    return [];
  }
  const names = new Set<string>();
  const visit = (node: ASTNode) => {
    if (node.op === "call" && node.args[0] === "in_list") {
      const first = (node.args[1] as ASTNode[])[0];
      if (first?.op === "value" && typeof first.args === "string") names.add(first.args);
    }
    children(node).forEach(visit);
  };
  visit(ast);
  return [...names];
}

let environment: Environment | null = null;
export function celEnvironment(): Environment {
  return (environment ??= buildEnvironment());
}

export interface ExpressionProblem {
  message: string;
  /** Zero-based character offsets of the faulty part. */
  start: number;
  end: number;
  /** One-based line and column of `start`. */
  line: number;
  column: number;
}

function at(source: string, start: number, end: number, message: string): ExpressionProblem {
  const before = source.slice(0, Math.max(0, Math.min(start, source.length)));
  const line = before.split("\n").length;
  const column = start - (before.lastIndexOf("\n") + 1) + 1;
  return { message, start, end: Math.max(start, end), line, column };
}

/** The closest known name, for "did you mean". */
function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best !== null && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

const TOP_LEVEL = [...new Set(FACT_NAMES.map((n) => (n.includes(".") ? n.slice(0, n.indexOf(".")) : n)))];

/** CEL's type names in words, with the name the identifier list uses. */
const TYPE_WORDS: Record<string, string> = {
  int: "a whole number (int)",
  uint: "a whole number (uint)",
  double: "a number (double)",
  string: "a string",
  bool: "true or false (bool)",
  "list<string>": "a list of strings",
  null: "null",
};

const typeWords = (type: string): string => TYPE_WORDS[type] ?? `a ${type}`;

const ARITHMETIC = new Set(["+", "-", "*", "/", "%"]);

/**
 * CEL's own words for a call no overload takes ("no such overload: double > string", "found no matching overload for
 * 'size(int)'") said as what the operator or function cannot take; anything else as CEL says it.
 */
function overloadWords(summary: string): string {
  // A type may hold a space ("map<int, int>"): the operator is what splits the two.
  const binary = summary.match(/^no such overload: (.+?) (==|!=|<=|>=|<|>|in|\+|-|\*|\/|%) (.+)$/);
  if (binary) {
    const [, left, op, right] = binary as unknown as [string, string, string, string];
    if (op === "in")
      return `"in" cannot look for ${typeWords(left)} in ${typeWords(right)}; it takes a list on its right`;
    const verb = ARITHMETIC.has(op) ? "combine" : "compare";
    return `"${op}" cannot ${verb} ${typeWords(left)} with ${typeWords(right)}`;
  }
  const unary = summary.match(/^no such overload: ([-!])(\S+)$/);
  if (unary) return `"${unary[1]}" cannot take ${typeWords(unary[2]!)}`;
  const call = summary.match(/^found no matching overload for '(?:(\S+?)\.)?([A-Za-z_]\w*)\(([^)]*)\)'$/);
  if (call) {
    const [, receiver, name, args] = call as unknown as [string, string | undefined, string, string];
    const given = args
      ? args
          .split(",")
          .map((a) => typeWords(a.trim()))
          .join(" and ")
      : "nothing";
    return receiver ? `${name}() on ${typeWords(receiver)} cannot take ${given}` : `${name}() cannot take ${given}`;
  }
  return summary.replace(/\.$/, "");
}

/** Turns the library's error into a message a person can act on. */
function explain(
  source: string,
  err: { name?: string; code?: string; summary?: string; message?: string; range?: { start: number; end: number } },
): ExpressionProblem {
  const start = err.range?.start ?? 0;
  const end = err.range?.end ?? start;
  const word = source.slice(start, end);
  const summary = err.summary ?? String(err.message ?? "invalid expression").split("\n")[0]!;
  switch (err.code) {
    case "unknown_variable": {
      const hint = closest(word, TOP_LEVEL);
      return at(
        source,
        start,
        end,
        `unknown identifier "${word}"${hint ? `; did you mean "${hint}"?` : "."} Identifiers are the facts listed in the rules documentation (${TOP_LEVEL.join(", ")}).`,
      );
    }
    case "no_such_key": {
      const group = source.slice(0, start).match(/([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*$/)?.[1];
      const fields = group
        ? FACT_NAMES.filter((n) => n.startsWith(`${group}.`)).map((n) => n.slice(group.length + 1))
        : [];
      if (group && fields.length) {
        const hint = closest(word, fields);
        return at(
          source,
          start,
          end,
          `unknown identifier "${group}.${word}"${hint ? `; did you mean "${group}.${hint}"?` : "."} The fields of ${group} are ${fields.join(", ")}.`,
        );
      }
      return at(source, start, end, `unknown field "${word}": only a group of facts (such as ip or email) has fields.`);
    }
    case "no_such_overload":
      return at(
        source,
        start,
        end,
        `type error: ${checkerWords(summary)}. Compare a fact with a value of its type (see the identifier list: string, int, double, bool or list<string>).`,
      );
    case "unexpected_token":
      // At the end of the source CEL names the end itself ("Unexpected token: EOF"): ours says what that means.
      return at(
        source,
        start,
        end,
        start >= source.length
          ? "syntax error: the expression ends too early."
          : `syntax error: ${summary.replace(/\.$/, "")}.`,
      );
    default:
      return at(
        source,
        start,
        end,
        `${err.name === "ParseError" ? "syntax error" : "type error"}: ${checkerWords(summary)}.`,
      );
  }
}

/**
 * The checker's other refusals said as what to change; one this table does not know keeps the checker's words, said
 * as such (the dashboard shows them apart, behind a disclosure).
 */
export function checkerWords(summary: string): string {
  const logical = summary.match(/^Logical operator requires bool operands, got '(.+)'\.?$/);
  if (logical) return `&& and || need true or false on both sides, got ${typeWords(logical[1]!)}`;
  const index = summary.match(/^Cannot index type '(.+)'\.?$/);
  if (index) return `${typeWords(index[1]!)} has no fields or elements to pick with "." or "[ ]"`;
  const ternary = summary.match(/^Ternary branches must have the same type, got '(.+)' and '(.+)'\.?$/);
  if (ternary)
    return `both results of "? :" must be of one type, got ${typeWords(ternary[1]!)} and ${typeWords(ternary[2]!)}`;
  if (/^has\(\) invalid argument\.?$/.test(summary)) return "has() takes a field of a fact, such as has(email.address)";
  if (/^Unterminated string\.?$/.test(summary)) return "a string is not closed: its closing quote is missing";
  const character = summary.match(/^Unexpected character: (.+?)\.?$/);
  if (character) return `“${character[1]}” cannot stand here`;
  const words = overloadWords(summary);
  return words === summary.replace(/\.$/, "") ? `this part cannot be used here (${CHECKER_SAYS} “${words}”)` : words;
}

/** How a message quotes the checker's own words, so a reader of it (the rule editor) can tell them apart. */
export const CHECKER_SAYS = "the CEL checker says";

/** Refusals the type checker does not make: unbounded constructs and malformed CIDR literals. */
function boundsProblem(source: string, ast: ASTNode): ExpressionProblem | null {
  const visit = (node: ASTNode, depth: number): ExpressionProblem | null => {
    if (node.op === "rcall" || node.op === "call") {
      const name = node.args[0] as string;
      const { start, end } = node.range;
      if (name === "matches")
        return at(
          source,
          start,
          end,
          "matches() is not available in rules (regular expressions have no bounded cost); use contains(), startsWith(), endsWith() or in.",
        );
      if (name === "bind")
        return at(source, start, end, "cel.bind() is not available in rules; repeat the sub-expression instead.");
      if (node.op === "rcall" && COMPREHENSIONS.has(name)) {
        const target = node.args[1] as ASTNode;
        if (!LIST_FACTS.has(factPath(target) as FactName)) {
          return at(
            source,
            target.range.start,
            target.range.end,
            `${name}() may only range over a fact list (${[...LIST_FACTS].join(", ")}).`,
          );
        }
        if (depth + 1 > MAX_COMPREHENSION_DEPTH)
          return at(
            source,
            start,
            end,
            `comprehensions (${[...COMPREHENSIONS].join(", ")}) may be nested at most ${MAX_COMPREHENSION_DEPTH} deep.`,
          );
        depth += 1;
      }
      if (name === "in_list" && node.op === "call") {
        const first = (node.args[1] as ASTNode[])[0];
        if (first?.op !== "value" || typeof first.args !== "string")
          return at(
            source,
            start,
            end,
            'in_list() takes the list\'s name as a quoted literal, e.g. in_list("blocked_emails", email.address).',
          );
      }
      if (name === "inCidr" && node.op === "rcall") {
        const arg = (node.args[2] as ASTNode[])[0];
        const literals = arg?.op === "value" ? [arg] : arg?.op === "list" ? (arg.args as ASTNode[]) : [];
        for (const lit of literals) {
          if (lit.op === "value" && typeof lit.args === "string" && (!lit.args.includes("/") || !parseCidr(lit.args))) {
            return at(
              source,
              lit.range.start,
              lit.range.end,
              `"${lit.args}" is not a CIDR range; write one such as "203.0.113.0/24" or "2001:db8::/32".`,
            );
          }
        }
      }
    }
    for (const child of children(node)) {
      const p = visit(child, depth);
      if (p) return p;
    }
    return null;
  };
  return visit(ast, 0);
}

function children(node: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const collect = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === "object" && "op" in v && "range" in v) out.push(v as ASTNode);
  };
  if (node.op !== "value" && node.op !== "id") collect(node.args);
  return out;
}

/** `ip.lists` for the AST of ip.lists, `signals` for signals, else "". */
function factPath(node: ASTNode): string {
  if (node.op === "id") return node.args as string;
  if (node.op === ".") {
    const [inner, field] = node.args as [ASTNode, string];
    return inner.op === "id" ? `${inner.args as string}.${field}` : "";
  }
  return "";
}

/** The facts that hold an address (ip.address): those a condition of kind ip tests. */
const ADDRESS_FACTS: ReadonlySet<string> = new Set(
  Object.values(CONDITION_FIELDS)
    .filter((d) => d.kind === "ip")
    .map((d) => d.fact),
);

/** The facts that hold an upper-case ISO 3166-1 code: those a condition of kind country tests, and the phone's. */
const COUNTRY_FACTS: ReadonlySet<string> = new Set([
  ...Object.values(CONDITION_FIELDS)
    .filter((d) => d.kind === "country")
    .map((d) => d.fact),
  "phone.country" satisfies FactName,
]);

/**
 * Each string literal compared with a fact of `facts` (`fact == "x"`, `!=`, either side, and `fact in [...]`), in
 * source order.
 */
function literalsComparedWith(ast: ASTNode, facts: ReadonlySet<string>): ASTNode[] {
  const out: ASTNode[] = [];
  const take = (node: ASTNode | undefined) => {
    if (node?.op === "value" && typeof node.args === "string") out.push(node);
  };
  const visit = (node: ASTNode) => {
    if (node.op === "==" || node.op === "!=") {
      const [left, right] = node.args as [ASTNode, ASTNode];
      if (facts.has(factPath(left))) take(right);
      if (facts.has(factPath(right))) take(left);
    } else if (node.op === "in") {
      const [left, right] = node.args as [ASTNode, ASTNode];
      if (facts.has(factPath(left)) && right.op === "list") (right.args as ASTNode[]).forEach(take);
    }
    children(node).forEach(visit);
  };
  visit(ast);
  return out.sort((a, b) => a.range.start - b.range.start);
}

/**
 * A country literal no country fact can ever equal (`billing_country == "ZZ"`, `ip.country in ["EU"]`, "UK", which
 * /assess reads as GB), judged as a condition's country value is (countryValueProblem), or written in lower case
 * ("de": a condition's value is saved in upper case, an expression is kept and run as written).
 */
function countryProblem(source: string, ast: ASTNode): ExpressionProblem | null {
  for (const lit of literalsComparedWith(ast, COUNTRY_FACTS)) {
    const code = lit.args as string;
    const problem = countryValueProblem(code);
    if (problem) return at(source, lit.range.start, lit.range.end, `"${code}" is not ${problem}.`);
    if (code !== code.toUpperCase())
      return at(
        source,
        lit.range.start,
        lit.range.end,
        `"${code}" never equals a country fact, which is in upper case: write "${code.toUpperCase()}".`,
      );
  }
  return null;
}

/**
 * The source with each address literal compared with ip.address (`ip.address == "::ffff:1.2.3.4"`, `!=`, `in
 * [...]`, either side) written as a condition's value is saved (ruleAddress): ip.address holds the canonical form and
 * an IPv4-mapped client as its IPv4 address, so a literal in another spelling could never be equal to it. Other
 * literals are left as written.
 */
function withRuleAddresses(source: string, ast: ASTNode): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const lit of literalsComparedWith(ast, ADDRESS_FACTS)) {
    const address = ruleAddress(lit.args as string);
    if (address !== null && address !== lit.args)
      edits.push({ start: lit.range.start, end: lit.range.end, text: JSON.stringify(address) });
  }
  let out = source;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

export type CompiledExpression = (context: Record<string, unknown>) => unknown;

/**
 * Parses, type-checks and bounds-checks an expression: the program, or what is wrong and where. A `stored` rule (one
 * being evaluated, saved under an older rule) is not refused for a country literal that could never match (one that
 * names no country, or in lower case): it was saved when any text was taken, and it never matches, as it never did.
 */
export function compileExpression(
  source: string,
  { stored = false }: { stored?: boolean } = {},
): { ok: true; run: CompiledExpression } | { ok: false; problem: ExpressionProblem } {
  if (source.trim() === "")
    return {
      ok: false,
      problem: at(source, 0, 0, "the expression is empty; write a condition such as `ip.country != billing_country`."),
    };
  if (source.length > MAX_EXPRESSION_LENGTH)
    return {
      ok: false,
      problem: at(
        source,
        MAX_EXPRESSION_LENGTH,
        source.length,
        `the expression is longer than ${MAX_EXPRESSION_LENGTH} characters.`,
      ),
    };
  const env = celEnvironment();
  let program;
  try {
    program = env.parse(source);
  } catch (err) {
    return { ok: false, problem: explain(source, err as never) };
  }
  const bounds = boundsProblem(source, program.ast);
  if (bounds) return { ok: false, problem: bounds };
  const checked = program.check();
  if (!checked.valid) return { ok: false, problem: explain(source, checked.error as never) };
  const country = stored ? null : countryProblem(source, program.ast);
  if (country) return { ok: false, problem: country };
  if (checked.type !== "bool") {
    return {
      ok: false,
      problem: at(
        source,
        0,
        source.length,
        `the expression gives ${/^[aeiou]/.test(checked.type ?? "") ? "an" : "a"} ${checked.type}, but a rule needs true or false; compare it, e.g. \`score > 50\`.`,
      ),
    };
  }
  // Problems above are reported at the offsets of the source as written; the program that runs reads its address
  // literals as ip.address holds them (the same types, so it checks as the source did).
  const runnable = withRuleAddresses(source, program.ast);
  if (runnable !== source) {
    program = env.parse(runnable);
    program.check();
  }
  return { ok: true, run: program as CompiledExpression };
}

/** "line 2, column 6: unknown identifier ..." */
export function describeProblem(p: ExpressionProblem): string {
  return `Invalid expression at line ${p.line}, column ${p.column} (offset ${p.start}): ${p.message}`;
}
