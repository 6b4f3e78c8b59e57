// Types for find-compiled-cli.mjs, which stays plain JavaScript because it runs before any loader.
export declare const COMPILED_DIR: string;
export declare const COMPILED_ENTRY: string;
export declare const BUILD_RECORD: string;
/** The compiled entry when it exists and is not older than its sources, else null. */
export declare function findCompiledCli(): string | null;
