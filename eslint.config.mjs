// ESLint (issue 23): only the rules that guard the structure, since Prettier owns the layout and tsc the types.
// import-x/no-cycle finds import circles that run code; "service/no-import-cycle" finds every circle, type-only imports
// included, on the same graph as test/foundation/import-cycles.test.ts (scripts/import-graph.mjs, issue 44 item 6);
// "service/no-server-in-client" keeps server/ out of client components: a file that starts with "use client" is
// bundled for the browser, so it may import types from server/ but no value.
import path from "node:path";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";
import { cycles, importGraph, resolveSpecifier } from "./scripts/import-graph.mjs";

/**
 * Modules of server/ that are pure data and functions (no I/O, no settings, no secrets) and so may be bundled for
 * the browser: the plan catalog and its sentences, the rule facts and conditions the rule editor checks as the
 * server does, the bulk kinds' labels, the words for DNS statuses, email verdicts and monitor states. A module joins this list only when it and everything it imports are pure.
 */
const SHARED_WITH_CLIENT = [
  "server/api/batch-limit",
  "server/api/contract-text",
  "server/bulk/kind-labels",
  "server/dns/status-words",
  "server/email/security/verdict-words",
  "server/events/csv",
  "server/monitors/checks/types",
  "server/monitors/limits",
  "server/monitors/state-words",
  "server/plans/catalog",
  "server/rules/conditions",
  "server/rules/facts",
  "server/vulnerabilities/lockfiles/types",
  "server/vulnerabilities/lockfile-scan/csv",
  "server/vulnerabilities/lockfile-scan/sarif",
];

/** Reports value imports of server/ in files marked "use client", except the pure modules above. */
const noServerInClient = {
  meta: {
    type: "problem",
    messages: { server: "A client component may not import server/ ({{source}}): only types." },
  },
  create(context) {
    const body = context.sourceCode.ast.body;
    const first = body[0];
    const isClient = first?.type === "ExpressionStatement" && first.directive === "use client";
    if (!isClient) return {};
    const check = (node, source, typeOnly) => {
      if (typeOnly || typeof source !== "string") return;
      const shared = SHARED_WITH_CLIENT.some((m) => source.endsWith(m) || source.endsWith(`${m}.ts`));
      if (shared) return;
      if (/(^|\/)server(\/|$)/.test(source) && (source.startsWith(".") || source.startsWith("@/")))
        context.report({ node, messageId: "server", data: { source } });
    };
    return {
      ImportDeclaration(node) {
        const allTypes = node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === "type");
        check(node, node.source.value, node.importKind === "type" || allTypes);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, node.exportKind === "type");
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === "type");
      },
      ImportExpression(node) {
        if (node.source.type === "Literal") check(node, node.source.value, false);
      },
    };
  },
};

/** Each module of server/ and app/ in a circle, with its circle: read once per lint run from the files on disk. */
let circleOf = null;
function circles() {
  if (!circleOf) {
    const root = process.cwd();
    circleOf = new Map();
    for (const group of cycles(importGraph([path.join(root, "server"), path.join(root, "app")], root)))
      for (const file of group) circleOf.set(file, group);
  }
  return circleOf;
}

/** Reports an import (of any kind, `import type` included) whose module imports this file back, directly or not. */
const noImportCycle = {
  meta: {
    type: "problem",
    messages: {
      circle:
        "{{source}} imports this file back ({{files}}): type-only imports count too; move what both need into a module of its own.",
    },
  },
  create(context) {
    const file = context.filename;
    const group = circles().get(file);
    if (!group) return {};
    const check = (node, source) => {
      if (typeof source !== "string") return;
      const target = resolveSpecifier(file, source, process.cwd());
      if (target && group.includes(target))
        context.report({
          node,
          messageId: "circle",
          data: { source, files: group.map((f) => path.relative(process.cwd(), f)).join(", ") },
        });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

export default [
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      "server/db/generated/**",
      ".next*/**",
      "clients/typescript/src/schema.ts",
      "public/**",
      "data/**",
      "bench/results/**",
      "lint/out/**",
      "test-results*/**",
      "playwright-report*/**",
      "**/*.d.ts",
    ],
  },
  {
    files: ["**/*.{ts,tsx,mts,mjs}"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: {
      "import-x": importX,
      service: { rules: { "no-server-in-client": noServerInClient, "no-import-cycle": noImportCycle } },
    },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] })],
    },
    rules: {
      "import-x/no-cycle": "error",
      "service/no-server-in-client": "error",
      "service/no-import-cycle": "error",
    },
  },
];
