// Collections (issue 46, decision 157): a person's own sets of their images. A collection is either
// hand-made (its items are rows of public.collection_items) or smart (a saved filter over the recipe,
// evaluated on each device over what it holds, so it has no items). One set of limits and one filter
// check, shared by the client and the database: SQL repeats them in the tables' checks
// (public.is_collection_filter), and a db test proves them equal.
import { countChars } from "./prompt.ts";
import { type AspectRatio, isAspectRatio, isQuality, type Quality } from "./generation.ts";
import { isStyleId } from "./styles.ts";
import { unstorableText } from "./text.ts";

export const COLLECTION_NAME_MAX = 60;
/** How many collections one person may have (a trigger on public.collections counts them). */
export const COLLECTIONS_PER_PERSON_MAX = 200;
/** How many images one hand-made collection may hold. */
export const COLLECTION_ITEMS_MAX = 10_000;
/** A smart collection's words: at most this many characters. */
export const COLLECTION_FILTER_TEXT_MAX = 200;
/** "Made in the last N days": 1 to this many. */
export const COLLECTION_WITHIN_DAYS_MAX = 3650;
/** An engine is named by its provider id (generations.provider): lower-case letters, digits and dashes. */
export const ENGINE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
const DAY_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * A smart collection's saved filter (stored as JSON in collections.filter, keys as written here). Every key
 * is optional, but a filter names at least one. Days are calendar days read in the viewer's time zone (as
 * History's filters are); `withinDays` counts back from now.
 */
export interface CollectionFilter {
  /** Words of the prompt; each must begin a word of it (History's search). */
  text?: string;
  /** A built-in style id. */
  style?: string;
  quality?: Quality;
  aspectRatio?: AspectRatio;
  /** The engine that drew it: generations.provider. */
  engine?: string;
  saved?: boolean;
  published?: boolean;
  /** yyyy-mm-dd, inclusive. */
  from?: string;
  /** yyyy-mm-dd, inclusive (the whole day). */
  to?: string;
  withinDays?: number;
}

export const COLLECTION_FILTER_KEYS = [
  "text",
  "style",
  "quality",
  "aspectRatio",
  "engine",
  "saved",
  "published",
  "from",
  "to",
  "withinDays",
] as const;

/** A collection as the server keeps it (snake_case, public.collections). `filter` null: hand-made. */
export interface CollectionRow {
  id: string;
  user_id: string;
  name: string;
  filter: CollectionFilter | null;
  created_at: string;
  updated_at: string;
}

export const COLLECTION_COLUMNS = "id,user_id,name,filter,created_at,updated_at";

/** One image in one hand-made collection (public.collection_items). */
export interface CollectionItemRow {
  collection_id: string;
  generation_id: string;
  user_id: string;
  added_at: string;
}

export const COLLECTION_ITEM_COLUMNS = "collection_id,generation_id,user_id,added_at";

/** A collection's name, checked: null when acceptable, else the message. */
export function validateCollectionName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return "Give the collection a name";
  if (countChars(trimmed) > COLLECTION_NAME_MAX) return `The name can be at most ${COLLECTION_NAME_MAX} characters`;
  if (unstorableText(trimmed)) return "The name holds characters that cannot be stored";
  return null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A smart collection's filter, checked: null when acceptable, else the message (the first problem). */
export function validateCollectionFilter(filter: unknown): string | null {
  if (!isRecord(filter)) return "A smart collection needs a filter";
  const keys = Object.keys(filter);
  const unknownKey = keys.find((k) => !(COLLECTION_FILTER_KEYS as readonly string[]).includes(k));
  if (unknownKey !== undefined) return `The filter has an unknown field: ${unknownKey.slice(0, 40)}`;
  if (keys.length === 0) return "Choose at least one thing the collection filters on";
  const f = filter as Record<string, unknown>;
  if (f.text !== undefined) {
    if (typeof f.text !== "string" || !f.text.trim()) return "The words must be text";
    if (countChars(f.text) > COLLECTION_FILTER_TEXT_MAX) {
      return `The words can be at most ${COLLECTION_FILTER_TEXT_MAX} characters`;
    }
    if (unstorableText(f.text)) return "The words hold characters that cannot be stored";
  }
  if (f.style !== undefined && !isStyleId(f.style)) return "Choose one of the styles";
  if (f.quality !== undefined && !isQuality(f.quality)) return "Choose one of the qualities";
  if (f.aspectRatio !== undefined && !isAspectRatio(f.aspectRatio)) return "Choose one of the aspect ratios";
  if (f.engine !== undefined && (typeof f.engine !== "string" || !ENGINE_ID_PATTERN.test(f.engine))) {
    return "Choose one of the engines";
  }
  if (f.saved !== undefined && typeof f.saved !== "boolean") return "Saved must be yes or no";
  if (f.published !== undefined && typeof f.published !== "boolean") return "Published must be yes or no";
  for (const key of ["from", "to"] as const) {
    const day = f[key];
    if (day !== undefined && (typeof day !== "string" || !DAY_PATTERN.test(day))) {
      return "Dates must be days (yyyy-mm-dd)";
    }
  }
  if (typeof f.from === "string" && typeof f.to === "string" && f.from > f.to) {
    return "The first day must not be after the last";
  }
  if (f.withinDays !== undefined) {
    const n = f.withinDays;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > COLLECTION_WITHIN_DAYS_MAX) {
      return `"Made in the last" must be 1 to ${COLLECTION_WITHIN_DAYS_MAX} days`;
    }
  }
  return null;
}
