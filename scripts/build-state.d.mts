export function buildIsStale(root: string): boolean;
export function ensureBuild(root: string): boolean;
export function clientIsStale(root: string): boolean;
