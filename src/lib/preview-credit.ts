// The built-in engine's honest name, shown beside every style preview it drew (a module of its own so
// pages that only credit the previews do not load the whole style catalog).
export const PREVIEW_CREDIT = "Preview drawn by the built-in procedural renderer (not an AI model)";
