// ESLint (issue 23): only the rules that guard the structure, since Prettier owns the layout and tsc the types.
// import-x/no-cycle finds import circles (type-only imports left out, as in test/foundation/import-cycles.test.ts);
// "service/no-server-in-client" keeps server/ out of client components: a file that starts with "use client" is
// bundled for the browser, so it may import types from server/ but no value.
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * Modules of server/ that are pure data and functions (no I/O, no settings, no secrets) and so may be bundled for
 * the browser: the plan catalog and its sentences, the rule facts and conditions the rule editor checks as the
 * server does, the bulk kinds' labels. A module joins this list only when it and everything it imports are pure.
 */
const SHARED_WITH_CLIENT = [
  "server/api/contract-text",
  "server/bulk/kind-labels",
  "server/events/csv",
  "server/monitors/checks/types",
  "server/monitors/estimate",
  "server/monitors/limits",
  "server/plans/catalog",
  "server/rules/conditions",
  "server/rules/facts",
  "server/vulnerabilities/lockfiles/types",
  "server/vulnerabilities/scan/csv",
  "server/vulnerabilities/scan/sarif",
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
    plugins: { "import-x": importX, service: { rules: { "no-server-in-client": noServerInClient } } },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] })],
    },
    rules: {
      "import-x/no-cycle": "error",
      "service/no-server-in-client": "error",
    },
  },
];
