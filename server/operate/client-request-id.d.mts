// Types of server/operate/client-request-id.mjs for the TypeScript code.
export function acceptedClientRequestId(value: unknown): string | null;
