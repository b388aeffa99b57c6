// One render process of render-pool.ts: runs the built-in engine's renderPng for each request read from
// stdin and writes the PNG (or the error's message) to stdout (render-protocol.ts), until stdin closes.
// The pool starts it at a lower CPU priority, so a render takes only the CPU the server leaves idle.
import { renderPng } from "../functions/_shared/engine/render.ts";
import { serveRenders } from "./render-protocol.ts";

await serveRenders(renderPng);
