-- A person's defaults for the generator (docs/spec.md §3) and their time zone. The row is made at sign-up (see
-- the new-user trigger); a client may also create it if missing. The time zone chosen here governs the
-- daily quota from its next reset on (see user_daily_limits), never the window already running.

create table public.user_preferences (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  default_style text not null default 'photorealistic',
  default_quality text not null default 'high',
  default_aspect_ratio text not null default '1:1',
  notifications_enabled boolean not null default true,
  public_gallery_opt_in boolean not null default false,
  timezone text not null default 'UTC',
  updated_at timestamptz not null default now(),
  constraint user_preferences_default_style_check check (public.is_style_id(default_style)),
  constraint user_preferences_default_quality_check check (default_quality in ('standard', 'high', 'ultra')),
  constraint user_preferences_default_aspect_ratio_check check (default_aspect_ratio in ('1:1', '16:9', '9:16')),
  constraint user_preferences_timezone_check check (public.is_iana_timezone(timezone))
);

comment on table public.user_preferences is 'Generator defaults and time zone of one person.';

create trigger user_preferences_touch_updated_at
  before insert or update on public.user_preferences
  for each row execute function private.touch_updated_at();

alter table public.user_preferences enable row level security;

create policy "Owners can read their own preferences"
  on public.user_preferences for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Owners can create their own preferences"
  on public.user_preferences for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "Owners can update their own preferences"
  on public.user_preferences for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- No delete: the row lives exactly as long as the account.
revoke all on table public.user_preferences from anon, authenticated, service_role;
grant select, insert, update on table public.user_preferences to authenticated;
grant select, insert, update, delete on table public.user_preferences to service_role;
