// Types of scripts/warm-pages.mjs for the TypeScript callers (tests, bench).
export declare function pagesToWarm(distDir: string): string[];
export declare function warmPages(
  origin: string,
  paths: string[],
  options?: { readyWithinMs?: number },
): Promise<string[]>;
