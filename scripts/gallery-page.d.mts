export const BACKEND_TIMEOUT_MS: number;
export type GalleryRoute = { id: string; kind: "page" | "image" };
export function galleryRoute(pathname: string): GalleryRoute | null;
export class BackendUnavailable extends Error {}
export type GalleryRow = {
  id: string;
  prompt: string;
  style: string;
  width: number;
  height: number;
  image_path: string;
};
type BackendConfig = { supabaseUrl?: unknown; supabaseAnonKey?: unknown } | undefined;
export function readGalleryRow(config: BackendConfig, id: string, fetcher?: typeof fetch): Promise<GalleryRow | null>;
export function readGalleryImage(
  config: BackendConfig,
  path: string,
  fetcher?: typeof fetch,
): Promise<{ type: string; body: Buffer } | null>;
export function clip(text: string, max: number): string;
export function siteOrigin(shell: string): string | null;
export type GalleryHead = { title: string; canonical: string; tags: [attr: string, key: string, value: string][] };
export function galleryHead(row: GalleryRow, origin: string): GalleryHead;
export function withGalleryHead(shell: string, head: GalleryHead): string;
