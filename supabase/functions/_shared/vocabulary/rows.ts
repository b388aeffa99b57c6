// Row shapes as PostgREST returns them (snake_case): the one declaration the app, the edge function,
// the local backend and the tests share.
import type { AspectRatio, Quality } from "./generation.ts";
import type { Tier } from "./tiers.ts";
import type { VariationKind } from "./variations.ts";

/** A row of public.generations (the generated `search` column is never read). */
export interface GenerationRow {
  id: string;
  user_id: string;
  prompt: string;
  negative_prompt: string;
  style: string;
  quality: Quality;
  aspect_ratio: AspectRatio;
  width: number;
  height: number;
  seed: number | null;
  provider: string;
  model: string;
  /** Storage object name `<user_id>/<id>.<ext>` in the private `generations` bucket. */
  image_path: string;
  is_public: boolean;
  is_saved: boolean;
  created_at: string;
  /** The person's custom style it was made with (decision 152): its id and name; null or absent when none. */
  custom_style_id?: string | null;
  custom_style_name?: string | null;
  /** The generation this one varies (decision 155), the same person's; null or absent when none. */
  parent_id?: string | null;
  /** How it varies its parent; null or absent when it is no variation. */
  variation?: VariationKind | null;
}

export const GENERATION_COLUMNS =
  "id,user_id,prompt,negative_prompt,style,quality,aspect_ratio,width,height,seed,provider,model,image_path,is_public,is_saved,created_at,custom_style_id,custom_style_name,parent_id,variation";

export const GENERATIONS_BUCKET = "generations";

export interface PreferencesRow {
  user_id: string;
  default_style: string;
  default_quality: Quality;
  default_aspect_ratio: AspectRatio;
  notifications_enabled: boolean;
  public_gallery_opt_in: boolean;
  timezone: string;
  updated_at: string;
}

/** What `get_my_limits()` answers. */
export interface MyLimits {
  generations_today: number;
  daily_limit: number;
  remaining: number;
  reset_at: string;
  tier: Tier;
}
