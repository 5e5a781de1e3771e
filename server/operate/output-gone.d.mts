// Types of server/operate/output-gone.mjs for the TypeScript code.
export const OUTPUT_GONE: ReadonlySet<string>;
export function outputGone(err: unknown): boolean;
