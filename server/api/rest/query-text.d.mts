export function undecodableQueryParameter(query: string): { name: string | null } | null;
