import type { Server } from "node:http";
export function createAppServer(options: {
  distDir: string;
  appConfig: Record<string, unknown>;
  /** How the server reads the backend for /gallery/<id> (fetch unless a test hands in its own). */
  fetcher?: typeof fetch;
}): Server & { forgetFiles(): void };
export function isCompressible(file: string, bytes: number): boolean;
