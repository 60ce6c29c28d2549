/** Types of test/support/ts-mirror.mjs (plain JavaScript: read before any TypeScript loader). */
export declare const TS_MIRROR: string;
export declare function mirroredSource(url: string): string | undefined;
export declare function tsMirror(): string;
export declare function mirrorOf(file: string): string;
