export function precompress(dist: string): Promise<{ files: number; raw: number; br: number }>;
