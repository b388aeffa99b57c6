export const ROOT: string;
export function stampPath(dist: string, root?: string): string;
export const BUILD_INPUTS: readonly string[];
export function inputsHash(root?: string, env?: Record<string, string | undefined>): Promise<string>;
export function isBuildCurrent(dist: string, hash: string, root?: string): Promise<boolean>;
export type BuildResult =
  | { built: false; seconds: number }
  | {
      built: true;
      seconds: number;
      steps: { vite: number; prerender: number; precompress: number };
      compressSummary: string;
    };
export function buildApp(options?: {
  root?: string;
  dist?: string;
  force?: boolean;
  env?: Record<string, string | undefined>;
}): Promise<BuildResult>;
export function describeBuild(result: BuildResult, dist: string, root?: string): string;
