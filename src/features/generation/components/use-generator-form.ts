// The generator form's state: starts from the product defaults (the first render reads nothing from
// the browser), then takes the saved preferences for style, quality and aspect ratio the person has
// not chosen yet, and fills in what a /generate link carries (once per link; a stashed reference
// image is taken from sessionStorage). Reset goes back to the defaults.
import { useCallback, useEffect, useRef, useState } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import { useSearch } from "wouter";
import { getPreferences } from "../../../db/queries";
import { parseGenerateLink, takeReferenceImage } from "../../../lib/generate-link";
import { useHydrated } from "../../../lib/use-hydrated";
import {
  applyLink,
  defaultsFrom,
  initialSettings,
  type GeneratorSettings,
  type StyleQualityRatio,
} from "./generator-settings";

type DefaultKey = keyof StyleQualityRatio;
const DEFAULT_KEYS: readonly DefaultKey[] = ["style", "quality", "aspectRatio"];

export function useGeneratorForm(userId: string | null) {
  const hydrated = useHydrated();
  const prefs = useLiveQuery(() => (hydrated && userId ? getPreferences(userId) : undefined), [hydrated, userId]);
  const search = useSearch();
  // Drawn afresh (not hydrating), the first render already shows what the link carries, so the field
  // never appears empty first; the effect below still takes a stashed reference image and the choices.
  const [settings, setSettings] = useState<GeneratorSettings>(() =>
    hydrated ? applyLink(initialSettings(), parseGenerateLink(search), null) : initialSettings(),
  );
  /** Defaults the person (or a link) chose; saved preferences no longer override them. */
  const chosen = useRef(new Set<DefaultKey>());
  const appliedSearch = useRef<string | null>(null);

  useEffect(() => {
    if (!prefs) return;
    const defaults = defaultsFrom(prefs);
    setSettings((s) => {
      const next = { ...s };
      for (const key of DEFAULT_KEYS) if (!chosen.current.has(key)) Object.assign(next, { [key]: defaults[key] });
      return next;
    });
  }, [prefs]);

  useEffect(() => {
    // The ref survives StrictMode's second effect run, so a stashed reference image is taken once.
    if (!hydrated || appliedSearch.current === search) return;
    appliedSearch.current = search;
    const link = parseGenerateLink(search);
    if (Object.keys(link).length === 0) return;
    const reference = link.reference ? takeReferenceImage() : null;
    if (link.style) chosen.current.add("style");
    if (link.quality) chosen.current.add("quality");
    if (link.aspectRatio) chosen.current.add("aspectRatio");
    setSettings((s) => applyLink(s, link, reference));
  }, [hydrated, search]);

  const update = useCallback(<K extends keyof GeneratorSettings>(key: K, value: GeneratorSettings[K]) => {
    if ((DEFAULT_KEYS as readonly string[]).includes(key)) chosen.current.add(key as DefaultKey);
    setSettings((s) => ({ ...s, [key]: value }));
  }, []);

  const reset = useCallback(() => {
    chosen.current.clear();
    setSettings(initialSettings(prefs));
  }, [prefs]);

  /** Several fields at once (an opened image's recipe); style, quality and ratio count as chosen. */
  const replace = useCallback((change: (s: GeneratorSettings) => GeneratorSettings) => {
    for (const key of DEFAULT_KEYS) chosen.current.add(key);
    setSettings(change);
  }, []);

  return { settings, update, reset, replace };
}
