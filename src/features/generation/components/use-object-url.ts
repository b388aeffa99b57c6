// An object URL for a cached image Blob, made after render and revoked when the Blob changes or the
// view goes away, so cached images never leak memory. Undefined until the effect has run, which
// also keeps the first (prerendered) render free of browser-only values.
import { useEffect, useState } from "react";

export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) {
      setUrl(undefined);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}
