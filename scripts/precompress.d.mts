export function precompress(
  dist: string,
  options?: { cacheDir?: string },
): Promise<{ files: number; reused: number; raw: number; br: number }>;
