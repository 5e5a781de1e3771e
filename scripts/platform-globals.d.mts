// Types of scripts/platform-globals.mjs for the TypeScript callers (tests).
export interface PlatformGlobals {
  Date: DateConstructor;
  random: () => number;
  nodeCrypto: Record<string, unknown>;
  webCrypto: Crypto;
  webCryptoOwn: Record<string, PropertyDescriptor | undefined>;
}
export declare function capturePlatformGlobals(): PlatformGlobals;
export declare function restorePlatformGlobals(kept: PlatformGlobals, o: { cacheComponents: boolean }): string[];
export declare const platformGlobalsAtLoad: PlatformGlobals;
export declare function buildUsesCacheComponents(distDir: string): boolean;
