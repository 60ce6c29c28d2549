/** A hash of every file the build reads: its path and content (16 hex digits). */
export declare function sourcesHash(): string;
