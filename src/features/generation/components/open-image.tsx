// Open an image to remix it: a file picked with "Open an image", dropped on the generator, opened with
// the installed app (the manifest's file_handlers, delivered through window.launchQueue to the window
// already open, so its queue is not reloaded), or shared from another app (the share target: the
// service worker keeps it in IndexedDB and opens /generate?open=shared). An image that carries a
// PromptCanvas recipe (#shared/recipe-metadata, written into every download) fills the generator with
// its settings; any other picture this browser can decode becomes the reference image (redrawn as a JPEG
// when the server could not read it: lib/reference-image.ts), and one it cannot is refused with a toast.
// All of it works offline.
import { useCallback, useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from "react";
import { readRecipe } from "#shared/recipe-metadata/recipe-file.ts";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import { db } from "../../../db/db";
import { takeOpenedImage } from "../../../db/opened-image";
import { prepareReference } from "../../../lib/reference-image";
import { showToast } from "../../../state/toasts";
import { Icon } from "../../../ui/icons";

export type OpenedImageHandlers = {
  /** The image carried a recipe: fill the generator with it. */
  remix: (recipe: ImageRecipe) => void;
  /** Any other image: it becomes the reference image. */
  reference: (reference: { dataUrl: string; name: string }) => void;
};

/** Any picture the browser decodes: one without a recipe is redrawn as the reference (lib/reference-image). */
const ACCEPT = "image/*";

/** Reads a file handed to the generator and does what it calls for; answers what was done, for the toast. */
export async function openImage(file: Blob, name: string, on: OpenedImageHandlers): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const recipe = readRecipe(bytes);
  if (recipe) {
    on.remix(recipe);
    showToast({
      tone: "success",
      title: "Settings filled in from the image",
      message: `“${name}”: its prompt, style, quality, ratio, seed and engine. Generate to make it again or change it first.`,
    });
    return;
  }
  const asFile = file instanceof File ? file : new File([file], name, { type: file.type });
  const prepared = await prepareReference(asFile);
  if (!prepared.ok) {
    showToast({ tone: "error", title: "This image could not be opened", message: prepared.message });
    return;
  }
  on.reference({ dataUrl: prepared.dataUrl, name });
  showToast({
    tone: "info",
    title: "Added as the reference image",
    message: `“${name}” carries no PromptCanvas settings, so it steers the next image instead.`,
  });
}

type LaunchParams = { files?: readonly { getFile(): Promise<File> }[] };
type LaunchQueue = { setConsumer(consumer: (params: LaunchParams) => void): void };

/**
 * The images the app is handed from outside: files it was launched with (file_handlers) and an image
 * shared with it (share target), each taken once.
 */
export function useImagesFromOutside(on: OpenedImageHandlers, search: string): void {
  const handlers = useRef(on);
  handlers.current = on;
  useEffect(() => {
    const queue = (window as unknown as { launchQueue?: LaunchQueue }).launchQueue;
    queue?.setConsumer((params) => {
      const first = params.files?.[0];
      if (!first) return;
      void first
        .getFile()
        .then((file) => openImage(file, file.name, handlers.current))
        .catch(() => undefined);
    });
  }, []);
  useEffect(() => {
    const params = new URLSearchParams(search);
    if (params.get("open") !== "shared") return;
    void takeOpenedImage(db).then((shared) => {
      if (shared) void openImage(shared.image, shared.name, handlers.current);
      // The address no longer asks for it: a reload does not look again.
      params.delete("open");
      const rest = params.toString();
      window.history.replaceState(window.history.state, "", `/generate${rest ? `?${rest}` : ""}`);
    });
  }, [search]);
}

/** "Open an image", and the drop zone around the generator's form. */
export function OpenImageDropZone({ on, children }: { on: OpenedImageHandlers; children: ReactNode }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const take = useCallback(
    (file: File | undefined) => {
      if (file) void openImage(file, file.name, on);
    },
    [on],
  );
  const hasFile = (e: DragEvent) => [...e.dataTransfer.types].includes("Files");
  return (
    <div
      onDragOver={(e) => {
        if (!hasFile(e)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        if (!hasFile(e)) return;
        e.preventDefault();
        setOver(false);
        take(e.dataTransfer.files[0]);
      }}
      className={`relative rounded-box ${over ? "outline-2 outline-offset-4 outline-primary outline-dashed" : ""}`}
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <p id={`${id}-hint`} className="text-xs text-base-content/70">
          Open or drop an image: a PromptCanvas image fills in its settings, any other becomes the reference.
        </p>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          aria-describedby={`${id}-hint`}
          onClick={() => input.current?.click()}
        >
          <Icon name="image" className="size-4" />
          Open an image
        </button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          className="hidden"
          aria-label="Image to open"
          tabIndex={-1}
          onChange={(e) => {
            take(e.target.files?.[0]);
            e.target.value = "";
          }}
        />
      </div>
      {children}
      {over ? (
        <div className="pointer-events-none absolute inset-0 grid place-items-center rounded-box bg-base-100/80 text-sm font-medium">
          Drop to open this image
        </div>
      ) : null}
    </div>
  );
}
