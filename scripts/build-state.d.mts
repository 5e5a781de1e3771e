export function buildIsStale(root: string): boolean;
export function ensureBuild(root: string, opts?: { generateClient?: boolean }): boolean;
export function clientIsStale(root: string): boolean;
