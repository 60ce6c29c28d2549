/** Called when a build starts: dist/ is unstamped until the build ends with `hash` still the sources' hash. */
export declare function buildStarted(hash: string): void;
/** The hash of the sources dist/ was built from, or undefined (no finished build, or one of changed sources). */
export declare function distBuiltFrom(): string | undefined;
