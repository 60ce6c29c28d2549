/** One file of `npm pack --json`. */
export interface PackedFile {
  path: string;
  size: number;
}

/** The parts of `npm pack --json`'s first element the budget reads. */
export interface PackInfo {
  size: number;
  unpackedSize: number;
  files: PackedFile[];
}

export declare const MAX_PACKED_BYTES: number;

export declare function tarballProblems(info: PackInfo, options?: { maxPackedBytes?: number }): string[];
