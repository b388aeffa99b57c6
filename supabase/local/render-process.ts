// One process of render-pool.ts: runs the built-in engine's renderPng for each render request, the
// shared image decoder (within its limits) for each decode request, and the image check of a stored
// image (the classifier, loaded at the first such request) for each classify request, read from stdin,
// and writes the answer to stdout (render-protocol.ts), until stdin closes. The pool starts it at a lower
// CPU priority, so its work takes only the CPU the server leaves idle, and kills it when a job overruns
// its budget.
import { renderPng } from "../functions/_shared/engine/render.ts";
import { decodeImage } from "../functions/_shared/image/decode.ts";
import { classifyImageFile } from "../functions/_shared/moderation/classify-file.ts";
import { serveRenders } from "./render-protocol.ts";

await serveRenders(renderPng, (bytes) => decodeImage(bytes), classifyImageFile);
