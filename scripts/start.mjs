// `npm start`: builds the app (only when a build input changed since the last build in DIST_DIR, see
// scripts/build.mjs) while the local backend (Deno, PGlite in DATA_DIR or DATABASE_URL) starts, serves
// the built app once both are ready, then prints where everything is. A build's Brotli copies are written
// after the app answers, at a lower CPU priority; until then the app server compresses on the fly
// (docs/decisions/138-npm-start-compresses-after-the-app-answers.md). Ctrl-C stops everything; data stays
// in DATA_DIR.
//
// Environment: PORT (app, 8080), API_PORT (backend, 54321), HOST (127.0.0.1), DATA_DIR (.data),
// DATABASE_URL (use a real Postgres instead of PGlite), PRODUCTION_HOST, SKIP_BUILD=1 (serve the build
// in DIST_DIR as it is, without checking it against the sources; built only if there is none),
// DIST_DIR (where the app is built and served from, dist/; parallel runs each take their own),
// CONTACT_EMAIL (the address the public pages give for reaching whoever runs this site; unset, they say
// there is none).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { dirname, join, resolve } from "node:path";
import { buildApp, compressBuild, describeBuild } from "./build.mjs";
import { denoPath } from "./deno-path.mjs";
import { createAppServer } from "./serve-app.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.PORT ?? 8080);
const API_PORT = Number(process.env.API_PORT ?? 54321);
const HOST = process.env.HOST ?? "127.0.0.1";
const DATA_DIR = process.env.DATA_DIR ?? join(root, ".data");
const shownHost = HOST === "0.0.0.0" ? "127.0.0.1" : HOST;
const appUrl = `http://${shownHost}:${PORT}`;
const DIST_DIR = resolve(root, process.env.DIST_DIR ?? "dist");

const skipBuild = process.env.SKIP_BUILD === "1" && existsSync(join(DIST_DIR, "index.html"));
if (skipBuild) console.log(`Serving the build in ${DIST_DIR} as it is (SKIP_BUILD=1).`);
else console.log("Checking the build…");

// The backend starts while the build is checked or made: neither needs the other.
const backend = spawn(denoPath(), ["run", "-A", "supabase/local/main.ts"], {
  cwd: root,
  env: { ...process.env, DATA_DIR, API_PORT: String(API_PORT), HOST, SITE_URL: process.env.SITE_URL ?? appUrl },
  stdio: ["ignore", "pipe", "pipe"],
});

const built = skipBuild
  ? Promise.resolve(null)
  : buildApp({ root, dist: DIST_DIR, brotli: "later" }).then(
      (result) => {
        console.log(describeBuild(result, DIST_DIR, root));
        return result;
      },
      (e) => {
        if (e.output) process.stderr.write(e.output);
        console.error(`The build failed: ${e.message}`);
        stop(1);
        return new Promise(() => undefined); // nothing is served
      },
    );

let server;
let ready = false;
let stopping = false;
/** Stops the Brotli copies being written in the background, if they are. */
const compressing = new AbortController();
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  compressing.abort();
  server?.close();
  if (backend.exitCode === null) {
    backend.once("exit", () => process.exit(code));
    backend.kill("SIGTERM");
    setTimeout(() => {
      backend.kill("SIGKILL");
      process.exit(code);
    }, 5000).unref();
  } else process.exit(code);
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
backend.on("exit", (code) => {
  if (!stopping) {
    console.error(`The backend stopped (exit ${code}).`);
    stop(code || 1);
  }
});

// The backend logs to stderr. It names every migration it applies; a count is enough here.
createInterface({ input: backend.stderr }).on("line", (line) => {
  const applied = /^\[local\] applied migrations: (.*)$/.exec(line);
  if (applied) console.log(`Database: applied ${applied[1].split(", ").length} new migrations.`);
  else console.error(line);
});

createInterface({ input: backend.stdout }).on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    console.log(line);
    return;
  }
  if (msg.event !== "ready" || ready) return;
  ready = true;
  void serve(msg);
});

async function serve(msg) {
  const build = await built;
  if (stopping) return;
  const appConfig = {
    supabaseUrl: msg.apiUrl,
    supabaseAnonKey: msg.anonKey,
    productionHost: process.env.PRODUCTION_HOST ?? "promptcanvas.app",
    // Checked in the app (src/api/config.ts): anything that is not one address shows as none.
    contactEmail: process.env.CONTACT_EMAIL?.trim() ?? "",
  };
  server = createAppServer({ distDir: DIST_DIR, appConfig });
  server.on("error", (e) => {
    console.error(`Cannot serve the app on ${HOST}:${PORT}: ${e.message}`);
    stop(1);
  });
  server.listen(PORT, HOST, () => {
    console.log(
      [
        "",
        "PromptCanvas is running.",
        `  App:       ${appUrl}`,
        `  API:       ${msg.apiUrl}  (database: ${msg.database}${msg.database === "pglite" ? `, data in ${DATA_DIR}` : ""})`,
        `  Anon key:  ${msg.anonKey}`,
        `  Mailbox:   ${msg.apiUrl}/_dev/mailbox  (mail that would have been sent)`,
        `  Contact:   ${appConfig.contactEmail || "none published (set CONTACT_EMAIL)"}`,
        "Press Ctrl-C to stop.",
        "",
      ].join("\n"),
    );
    if (build?.brotliPending) compressLater();
  });
}

function compressLater() {
  compressBuild({ root, dist: DIST_DIR, signal: compressing.signal }).then(
    ({ seconds, summary }) => {
      server.forgetFiles();
      console.log(`Wrote the build's Brotli copies in the background in ${seconds.toFixed(1)} s (${summary}).`);
    },
    (e) => {
      if (!stopping)
        console.error(
          `The build's Brotli copies were not written (${e.message}); the app is served compressed on the fly.`,
        );
    },
  );
}
