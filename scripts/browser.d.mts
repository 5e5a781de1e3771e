export function findChromium(): { path: string; error?: undefined } | { error: string; path?: undefined } | null;
export const CHROMIUM_ARGS: string[];
