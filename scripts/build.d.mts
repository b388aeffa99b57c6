export const ROOT: string;
export function stampPath(dist: string, root?: string): string;
export const BUILD_INPUTS: readonly string[];
export function inputsHash(root?: string, env?: Record<string, string | undefined>): Promise<string>;
export function isBuildCurrent(dist: string, hash: string, root?: string): Promise<boolean>;
export type CompressResult = { seconds: number; summary: string };
export type BuildResult =
  | { built: false; seconds: number; brotliPending: boolean; compressed?: CompressResult }
  | {
      built: true;
      seconds: number;
      steps: { vite: number; prerender: number; precompress: number | null };
      compressSummary: string;
      brotliPending: boolean;
    };
export function buildApp(options?: {
  root?: string;
  dist?: string;
  force?: boolean;
  env?: Record<string, string | undefined>;
  brotli?: "now" | "later";
}): Promise<BuildResult>;
export function compressBuild(options: { root?: string; dist: string; signal?: AbortSignal }): Promise<CompressResult>;
export function describeBuild(result: BuildResult, dist: string, root?: string): string;
