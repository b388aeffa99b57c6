// Runtime configuration. `npm start` answers this path with the local backend's URL and anon key;
// a hosted build that serves this file as-is falls back to the VITE_* variables it was built with.
window.__APP_CONFIG__ = window.__APP_CONFIG__ || {};
