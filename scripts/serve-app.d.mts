import type { Server } from "node:http";
export function createAppServer(options: {
  distDir: string;
  appConfig: Record<string, unknown>;
}): Server & { forgetFiles(): void };
export function isCompressible(file: string, bytes: number): boolean;
