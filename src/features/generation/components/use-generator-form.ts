// The generator form's state: starts from the product defaults (the first render reads nothing from
// the browser), takes the saved preferences for style, quality and aspect ratio once (docs/spec.md §4:
// on load), before those three fields are first shown (`defaultsReady`; until then they keep their
// place, unseen), and fills in what a /generate link carries (once per link; a stashed reference image
// is taken from sessionStorage). Reset goes back to the saved defaults.
import { useCallback, useEffect, useRef, useState } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import { useSearch } from "wouter";
import { getPreferences } from "../../../db/queries";
import type { PreferencesRecord } from "../../../db/schema";
import { parseGenerateLink, takeReferenceImage } from "../../../lib/generate-link";
import { useHydrated } from "../../../lib/use-hydrated";
import { useOnline } from "../../../lib/use-online";
import {
  NEW_ACCOUNT_DEFAULTS,
  applyLink,
  defaultsFrom,
  initialSettings,
  type GeneratorSettings,
  type SavedDefaults,
  type StyleQualityRatio,
} from "./generator-settings";

type DefaultKey = keyof StyleQualityRatio;
const DEFAULT_KEYS: readonly DefaultKey[] = ["style", "quality", "aspectRatio"];

/**
 * How long a signed-in person's generator waits for a preferences row this device does not hold yet
 * (the first pull after signing in brings it, or creates the default one) before it starts from the
 * defaults a new row gets.
 */
export const PREFERENCES_WAIT_MS = 3_000;

type Who = { userId: string | null; checking: boolean };

/** The saved defaults to start from, or undefined while they are still to come. */
function useStartingDefaults({ userId, checking }: Who): SavedDefaults | null | undefined {
  const hydrated = useHydrated();
  const online = useOnline();
  // Wrapped, so "no row on this device" (record undefined) differs from "not read yet" (undefined).
  const read = useLiveQuery(
    async (): Promise<{ record: PreferencesRecord | undefined } | null> =>
      hydrated && userId ? { record: await getPreferences(userId) } : null,
    [hydrated, userId],
  );
  const [waited, setWaited] = useState<string | null>(null);
  const missing = Boolean(userId && read && !read.record);
  useEffect(() => {
    if (!missing || !userId) return;
    const timer = window.setTimeout(() => setWaited(userId), PREFERENCES_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [missing, userId]);

  if (!hydrated || checking) return undefined;
  if (!userId) return null; // a visitor: the product's defaults
  if (!read) return undefined;
  if (read.record) return read.record;
  return !online || waited === userId ? NEW_ACCOUNT_DEFAULTS : undefined;
}

export function useGeneratorForm(who: Who) {
  const hydrated = useHydrated();
  const starting = useStartingDefaults(who);
  const search = useSearch();
  // Drawn afresh (not hydrating), the first render already shows what the link carries, so the field
  // never appears empty first; the effect below still takes a stashed reference image and the choices.
  const [settings, setSettings] = useState<GeneratorSettings>(() =>
    hydrated ? applyLink(initialSettings(), parseGenerateLink(search), null) : initialSettings(),
  );
  /** Defaults the person (or a link) chose; saved preferences no longer override them. */
  const chosen = useRef(new Set<DefaultKey>());
  const appliedSearch = useRef<string | null>(null);
  /** Whose saved defaults the form took (once per person), so later changes to them leave it alone. */
  const [appliedFor, setAppliedFor] = useState<string | null | undefined>(undefined);

  // Applied during render, not in an effect: the fields are first shown with the saved values, never
  // with the product's defaults for a frame.
  if (starting !== undefined && appliedFor !== who.userId) {
    setAppliedFor(who.userId);
    const defaults = defaultsFrom(starting);
    setSettings((s) => {
      const next = { ...s };
      for (const key of DEFAULT_KEYS) if (!chosen.current.has(key)) Object.assign(next, { [key]: defaults[key] });
      return next;
    });
  }

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
    setSettings(initialSettings(starting));
  }, [starting]);

  /** Several fields at once (an opened image's recipe); style, quality and ratio count as chosen. */
  const replace = useCallback((change: (s: GeneratorSettings) => GeneratorSettings) => {
    for (const key of DEFAULT_KEYS) chosen.current.add(key);
    setSettings(change);
  }, []);

  return { settings, update, reset, replace, defaultsReady: appliedFor === who.userId };
}
