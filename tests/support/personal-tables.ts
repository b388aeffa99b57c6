// The tables a deleted account must leave empty, for the tiers that check it (db, backend, e2e).

/** Every table of the product that holds rows of a person, each keyed by its user_id column. */
export const PERSONAL_TABLES = [
  "generations",
  "user_preferences",
  "user_daily_limits",
  "quota_reservations",
  "app_events",
  "web_vitals",
  "custom_styles",
  "collections",
  "collection_items",
  "subscriptions",
  "billing_customers",
];
