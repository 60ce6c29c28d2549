/** One file of `npm pack --json`. */
export interface PackedFileInfo {
  path: string;
  size: number;
}

/** `npm pack --json`'s entry for the tarball. */
export interface PackedInfo {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: PackedFileInfo[];
}

/** A hash of the path and content of every file the package publishes (16 hex digits). */
export declare function publishedHash(): string;

/**
 * The tarball of the package as it is now, packed once per content under `.tmp/packed/`; `reused` is true when an
 * earlier step packed the same files.
 */
export declare function packedTarball(): { tarball: string; info: PackedInfo; reused: boolean };
