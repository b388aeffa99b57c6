// The one place that names the Chromium the tests, benchmarks and scripts drive: CHROMIUM_PATH when set,
// else Debian's /usr/bin/chromium (what .ci/run installs). Playwright's own browser downloads are not used.
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/** The Chromium executable to launch: $CHROMIUM_PATH, or /usr/bin/chromium. */
export function chromiumPath() {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}
