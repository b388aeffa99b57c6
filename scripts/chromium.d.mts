export const DEFAULT_CHROMIUM_PATH: string;
export function chromiumPath(): string;
