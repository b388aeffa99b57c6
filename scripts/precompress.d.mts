export const PRECOMPRESSED: Set<string>;
export const MIN_BYTES: number;
export function precompress(dist: string): Promise<{ files: number; raw: number; br: number }>;
