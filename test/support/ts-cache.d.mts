/** Types of test/support/ts-cache.mjs (plain JavaScript: loaded before any TypeScript loader). */
export declare const TS_CACHE: string;
export declare function cacheName(path: string, source: string): string;
export declare function cacheFile(path: string, source: string): string;
export declare function transformOptions(path: string): Record<string, unknown>;
export declare function storeCached(path: string, source: string, code: string): void;
export declare function transpiledSync(path: string, source: string): string;
