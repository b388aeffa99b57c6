// A published image's thumbnail, read with plain fetch as the anon role, so a visitor's gallery tiles
// never load supabase-js (about 50 KB gzip, and its start-up on the main thread) just to show pictures.
// It is the request supabase-js makes for `storage.from(bucket).download(path, { transform })` as a
// visitor (and the one the gallery's first screen makes, see features/gallery/first-screen.ts): the
// Storage API's image transformation, with the anon key. The bucket's policy decides as on every read:
// only a published image comes back. Anything else (refused, no transformation on this project, no
// backend, offline) is null, and the caller reads the image through the API client instead.
// The request asks for WebP (THUMBNAIL_ACCEPT): Supabase's image transformation answers WebP only to an
// Accept header that names it, and fetch() sends */*, which gets the stored format (a PNG) at full weight.
import { GENERATIONS_BUCKET } from "#shared/vocabulary/rows.ts";
import { appConfig, isBackendConfigured, type AppConfig } from "./config";

/** The Accept header of a thumbnail request: WebP, about half the bytes of JPEG at the same quality. */
export const THUMBNAIL_ACCEPT = "image/webp,*/*;q=0.8";

/** The Storage API address of `path` scaled to a `side`-pixel square, as supabase-js spells it. */
export function thumbnailUrl(supabaseUrl: string, path: string, side: number): string {
  const object = path.split("/").map(encodeURIComponent).join("/");
  return `${supabaseUrl}/storage/v1/render/image/authenticated/${GENERATIONS_BUCKET}/${object}?width=${side}&height=${side}&resize=cover&quality=75`;
}

/** The thumbnail's bytes as the anon role, or null when it could not be read that way. */
export async function loadPublicThumbnail(
  path: string,
  side: number,
  { config = appConfig(), fetcher = (...args) => fetch(...args) }: { config?: AppConfig; fetcher?: typeof fetch } = {},
): Promise<Blob | null> {
  if (!isBackendConfigured(config)) return null;
  const key = config.supabaseAnonKey;
  try {
    const res = await fetcher(thumbnailUrl(config.supabaseUrl, path, side), {
      headers: { apikey: key, Authorization: `Bearer ${key}`, Accept: THUMBNAIL_ACCEPT },
    });
    if (!res.ok) return null;
    const blob = await res.blob();
    // A transformation answers with the picture; anything else (an HTML error page from a proxy) is no thumbnail.
    return blob.type.startsWith("image/") ? blob : null;
  } catch {
    return null;
  }
}
