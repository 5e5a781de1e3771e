// Types of scripts/warm-pages.mjs for the TypeScript callers (tests, bench).
export declare function pagesToWarm(distDir: string): string[];
/** Loads each page module of the build once (no render); the pages loaded. Off with SERVICE_WARM_PAGES=0 (or false, no, off). */
export declare function preloadPageModules(distDir: string, paths: string[]): string[];
export declare function warmPages(
  origin: string,
  paths: string[],
  options?: { readyWithinMs?: number },
): Promise<string[]>;
/** SERVICE_WARM_PAGES: on unless `0`, `false`, `no` or `off`. */
export declare function warmPagesWanted(env?: Record<string, string | undefined>): boolean;
