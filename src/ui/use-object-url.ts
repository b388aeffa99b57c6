// An object URL for a cached image Blob, made after render and revoked when the Blob changes or
// the tile leaves the screen, so thousands of cached images never pin memory at once.
import { useEffect, useState } from "react";

export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [state, setState] = useState<{ blob: Blob; url: string }>();
  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    setState({ blob, url });
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  // A URL made for an earlier Blob is never shown for a new one.
  return blob && state?.blob === blob ? state.url : undefined;
}
