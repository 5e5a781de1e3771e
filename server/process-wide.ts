// One value per process, whichever bundle asks. Next's production build evaluates a module once per route bundle
// and once more for start-up (instrumentation.ts), so a module-level cache exists once per bundle: data that
// start-up loads "for the first request" would sit unused in start-up's copy while the /v1 route loaded its own on
// its first request (a second copy of the two geolocation files, 134 MB, read synchronously: about 0.7 s of held
// event loop). Caches of shipped data are kept here instead, under a name, on globalThis.

/** The process's value for `name`, created by `create` on first use. */
export function processWide<T>(name: string, create: () => T): T {
  const held = globalThis as unknown as Record<symbol, unknown>;
  const key = Symbol.for(`service.process-wide.${name}`);
  if (!(key in held)) held[key] = create();
  return held[key] as T;
}
