// The import graph of server/ and app/ that the cycle and layer tests read: scripts/import-graph.mjs, which ESLint's
// cycle rule reads too, so the test and the linter see the same graph.
export {
  cycles,
  importGraph,
  importSpecifiers,
  resolveSpecifier,
  runtimeSpecifiers,
  sourceFiles,
} from "../../scripts/import-graph.mjs";
