/** The TypeScript module src/fs/yaml-lines.wat compiles to (src/fs/yaml-lines-wasm.ts holds it). */
export declare function compiledModule(): Promise<string>;
