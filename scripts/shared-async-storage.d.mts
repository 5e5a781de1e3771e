// Types of scripts/shared-async-storage.mjs for the tests.
import type { AsyncLocalStorage } from "node:async_hooks";

export declare const PlatformAsyncLocalStorage: typeof AsyncLocalStorage;
export declare function sharedAsyncLocalStorageClass(Platform?: typeof AsyncLocalStorage): typeof AsyncLocalStorage;
export declare function sharedAsyncStorageWanted(env?: Record<string, string | undefined>): boolean;
export declare function replaceable(hooks: object): boolean;
export declare function installSharedAsyncStorage(
  env?: Record<string, string | undefined>,
  hooks?: object,
): typeof AsyncLocalStorage | null;
