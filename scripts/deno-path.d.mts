export function denoPath(): string;
