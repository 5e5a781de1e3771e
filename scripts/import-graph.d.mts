// Types of scripts/import-graph.mjs for the TypeScript tests.
export function sourceFiles(dir: string): string[];
export function importSpecifiers(text: string, options?: { runtimeOnly?: boolean }): string[];
export function runtimeSpecifiers(text: string): string[];
export function resolveSpecifier(from: string, spec: string, projectRoot?: string): string | null;
export function importGraph(
  dirs: string[],
  projectRoot?: string,
  options?: { runtimeOnly?: boolean },
): Map<string, string[]>;
export function cycles(graph: Map<string, string[]>): string[][];
