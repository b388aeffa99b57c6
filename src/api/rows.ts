// Row shapes of the tables the client reads, exactly as PostgREST returns them (snake_case).

export type GenerationRow = {
  id: string;
  user_id: string;
  prompt: string;
  negative_prompt: string;
  style: string;
  quality: "standard" | "high" | "ultra";
  aspect_ratio: "1:1" | "16:9" | "9:16";
  width: number;
  height: number;
  seed: number | null;
  provider: string;
  model: string;
  image_path: string;
  is_public: boolean;
  is_saved: boolean;
  created_at: string;
};

export type PreferencesRow = {
  user_id: string;
  default_style: string;
  default_quality: "standard" | "high" | "ultra";
  default_aspect_ratio: "1:1" | "16:9" | "9:16";
  notifications_enabled: boolean;
  public_gallery_opt_in: boolean;
  timezone: string;
  updated_at: string;
};

export type MyLimits = {
  generations_today: number;
  daily_limit: number;
  remaining: number;
  reset_at: string;
  tier: "free" | "pro" | "premium";
};
