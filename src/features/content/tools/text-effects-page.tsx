// /text-effects: a small working tool. Type a word, pick an effect and colours, see it live on a
// canvas, and download it as a PNG. Everything happens in the browser.
import { useEffect, useId, useRef, useState } from "react";
import { PageHeader } from "../../../ui/page-header";
import { Icon } from "../../../ui/icons";
import {
  EFFECT_LABELS,
  TEXT_EFFECTS,
  TEXT_MAX_CHARS,
  drawTextEffect,
  type Background,
  type TextEffect,
} from "./text-effects-render";

const WIDTH_PX = 1200;
const HEIGHT_PX = 400;
const DEFAULT_COLORS: Record<TextEffect, [string, string]> = {
  outline: ["#7c3aed", "#db2777"],
  neon: ["#22d3ee", "#f0abfc"],
  gradient: ["#7c3aed", "#f59e0b"],
  shadow3d: ["#f59e0b", "#7c2d12"],
};

export function downloadName(text: string): string {
  const slug = text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 30);
  return `${slug || "text"}-effect.png`;
}

export default function TextEffectsPage() {
  const id = useId();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [text, setText] = useState("PromptCanvas");
  const [effect, setEffect] = useState<TextEffect>("neon");
  const [[primary, secondary], setColors] = useState(DEFAULT_COLORS.neon);
  const [background, setBackground] = useState<Background>("dark");

  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (ctx) drawTextEffect(ctx, { text, effect, primary, secondary, background, width: WIDTH_PX, height: HEIGHT_PX });
  }, [text, effect, primary, secondary, background]);

  const pickEffect = (e: TextEffect) => {
    setEffect(e);
    setColors(DEFAULT_COLORS[e]);
  };

  const download = () => {
    canvas.current?.toBlob((blob) => {
      if (!blob) return;
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = downloadName(text);
      a.click();
      window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
    }, "image/png");
  };

  const usesSecondary = effect === "gradient" || effect === "shadow3d";
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title="Text Effects"
        lead="Make a title or logo word stand out: type it, choose an effect and colours, and download a PNG. It runs entirely in your browser; nothing is uploaded."
      />
      <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <div>
          <canvas
            ref={canvas}
            width={WIDTH_PX}
            height={HEIGHT_PX}
            role="img"
            aria-label={`"${text.trim() || "Your text"}" with the ${EFFECT_LABELS[effect]} effect`}
            className="aspect-[3/1] w-full rounded-box border border-base-300 bg-[repeating-conic-gradient(#8882_0_25%,transparent_0_50%)] bg-[length:24px_24px]"
          />
          <button type="button" className="btn btn-primary mt-4" onClick={download}>
            <Icon name="download" className="size-4" />
            Download PNG
          </button>
          <p className="mt-2 text-sm text-base-content/80">
            {WIDTH_PX}×{HEIGHT_PX} pixels{background === "transparent" ? ", transparent background" : ""}.
          </p>
        </div>
        <form className="flex flex-col gap-5" onSubmit={(e) => e.preventDefault()} aria-label="Text effect settings">
          <label className="flex flex-col gap-1" htmlFor={`${id}-text`}>
            <span className="text-sm font-medium">Text</span>
            <input
              id={`${id}-text`}
              className="input w-full"
              value={text}
              maxLength={TEXT_MAX_CHARS}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <fieldset>
            <legend className="mb-2 text-sm font-medium">Effect</legend>
            <div className="grid grid-cols-2 gap-2">
              {TEXT_EFFECTS.map((e) => (
                <label
                  key={e}
                  className={`btn btn-sm justify-start has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary ${effect === e ? "btn-primary" : "btn-outline"}`}
                >
                  <input
                    type="radio"
                    name={`${id}-effect`}
                    className="sr-only"
                    checked={effect === e}
                    onChange={() => pickEffect(e)}
                  />
                  {EFFECT_LABELS[e]}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex gap-4">
            <label className="flex items-center gap-2 text-sm" htmlFor={`${id}-primary`}>
              <input
                id={`${id}-primary`}
                type="color"
                className="size-9 cursor-pointer rounded-field"
                value={primary}
                onChange={(e) => setColors([e.target.value, secondary])}
              />
              {effect === "shadow3d" ? "Face colour" : effect === "gradient" ? "Start colour" : "Colour"}
            </label>
            {usesSecondary && (
              <label className="flex items-center gap-2 text-sm" htmlFor={`${id}-secondary`}>
                <input
                  id={`${id}-secondary`}
                  type="color"
                  className="size-9 cursor-pointer rounded-field"
                  value={secondary}
                  onChange={(e) => setColors([primary, e.target.value])}
                />
                {effect === "shadow3d" ? "Shadow colour" : "End colour"}
              </label>
            )}
          </div>
          <fieldset>
            <legend className="mb-2 text-sm font-medium">Background</legend>
            <div className="flex flex-wrap gap-2">
              {(["dark", "light", "transparent"] as const).map((b) => (
                <label
                  key={b}
                  className={`btn btn-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary ${background === b ? "btn-primary" : "btn-outline"}`}
                >
                  <input
                    type="radio"
                    name={`${id}-background`}
                    className="sr-only"
                    checked={background === b}
                    onChange={() => setBackground(b)}
                  />
                  {b === "dark" ? "Dark" : b === "light" ? "Light" : "Transparent"}
                </label>
              ))}
            </div>
          </fieldset>
        </form>
      </div>
      <section aria-labelledby="fx-tips" className="mt-12 grid gap-4 sm:grid-cols-2">
        <h2 id="fx-tips" className="sr-only">
          Tips
        </h2>
        <div className="rounded-box bg-base-200 p-5">
          <h3 className="font-semibold">Short words work best</h3>
          <p className="mt-1 text-sm text-base-content/85">
            The text is sized to fill the width, so one to three words give the boldest result.
          </p>
        </div>
        <div className="rounded-box bg-base-200 p-5">
          <h3 className="font-semibold">Combine with a generated image</h3>
          <p className="mt-1 text-sm text-base-content/85">
            Download with a transparent background and lay it over an image from the generator in any editor.
          </p>
        </div>
      </section>
    </div>
  );
}
