// Types of scripts/warm-pages.mjs for the TypeScript callers (tests, bench).
export declare function pagesToWarm(distDir: string): string[];
/** Loads each page module of the build once (no render); the pages loaded. Off with SERVICE_WARM_PAGES=0. */
export declare function preloadPageModules(distDir: string, paths: string[]): string[];
export declare function warmPages(
  origin: string,
  paths: string[],
  options?: { readyWithinMs?: number },
): Promise<string[]>;
