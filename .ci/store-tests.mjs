// Prints the unit test files whose outcome can depend on the store (PGlite or PostgreSQL), for CI's second run
// with DATABASE_URL: files that opened the database in their own process during the first run (`--opened FILE`, the
// list test/file-database.ts wrote), or, without that list, files that reach server/db/client.ts through their imports
// (static or dynamic, type-only imports excluded); and, to stay on the safe side, files that start processes or name
// DATABASE_URL or pg. Every other file never opens a database, or opens the same one whatever it is given (below), so
// the first run (embedded store) covers it. New files are picked up by the glob; nothing here lists files by name.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const STORE = path.join(root, "server/db/client.ts");
const IMPORT =
  /(?:^|[^.\w])(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const DIRECT = /DATABASE_URL|from\s+["']pg["']|child_process|tsImport\(/;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) continue;
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

function resolve(from, spec) {
  if (!spec.startsWith(".") && !spec.startsWith("@/")) return null;
  const base = spec.startsWith("@/") ? path.join(root, spec.slice(2)) : path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}.js`, path.join(base, "index.ts")]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  const ts = base.replace(/\.(m?js)$/, ".ts");
  return existsSync(ts) ? ts : null;
}

const memo = new Map();
function touchesStore(file, seen = new Set()) {
  if (file === STORE) return true;
  if (memo.has(file)) return memo.get(file);
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  let hit = DIRECT.test(text);
  for (const m of text.matchAll(IMPORT)) {
    if (hit) break;
    if (m[1]) continue; // `import type`: erased, opens nothing
    const target = resolve(file, m[2] ?? m[3]);
    if (target && touchesStore(target, seen)) hit = true;
  }
  if (hit || seen.size === 1) memo.set(file, hit);
  return hit;
}

// Files whose store does not follow DATABASE_URL ran on it in the first run already: a file that unsets
// DATABASE_URL at its top (embedded whatever it is given, or no database at all), one that runs its app processes and
// its client on a PostgreSQL schema of its own (test/fakes/process-schema.ts), and one that talks to DATABASE_URL or
// else the local PostgreSQL (the same server in both runs).
const STORE_FIXED =
  /^delete process\.env\.DATABASE_URL;$|^const \w+ = useProcessSchema\(|process\.env\.DATABASE_URL \?\? process\.env\.SERVICE_TEST_DATABASE_URL \?\?/m;

const files = [...walk(path.join(root, "server")), ...walk(path.join(root, "test"))].sort();
const openedAt = process.argv.indexOf("--opened");
let mayUseStore = touchesStore;
let how = "reach the store through their imports";
if (openedAt >= 0) {
  const list = process.argv[openedAt + 1] ?? "";
  const opened = new Set(
    existsSync(list)
      ? readFileSync(list, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((f) => path.resolve(root, f))
      : [],
  );
  if (opened.size) {
    mayUseStore = (f) => opened.has(f) || DIRECT.test(readFileSync(f, "utf8"));
    how = "opened the store in the first run, or start processes or name DATABASE_URL or pg";
  } else console.error(`${list || "--opened"}: no file recorded; using the imports`);
}
const store = files.filter((f) => mayUseStore(f) && !STORE_FIXED.test(readFileSync(f, "utf8")));
if (process.argv.includes("--count")) console.error(`${store.length} of ${files.length} test files ${how}`);
console.log(store.map((f) => path.relative(root, f)).join("\n"));
