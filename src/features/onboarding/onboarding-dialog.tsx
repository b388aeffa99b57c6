// The onboarding dialog (docs/spec.md §2, §4): Welcome, Choose Your Style, Start Creating. Skip, Escape and
// Get Started all mark it completed; Get Started then opens the generator with the chosen style.
// Its claims are the product's real ones: 27 styles, the built-in procedural renderer always, and an
// AI models only where the site offers them. Completion is kept in this browser and, for a person
// signed in, with the account (account-flag.ts).
import { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { PageIcon } from "../../ui/page-icons";
import { buildGenerateLink } from "../../lib/generate-link";
import { GENERATION_DEFAULTS } from "#shared/vocabulary/generation.ts";
import { STYLE_BY_ID, STYLE_IDS, type StyleId } from "#shared/vocabulary/styles.ts";
import { stylePreviewSrc } from "../../lib/style-catalog";
import { keepCompletionWithAccount } from "./account-flag";
import { markOnboardingCompleted } from "./onboarding-storage";

const STEPS = ["Welcome", "Choose Your Style", "Start Creating"] as const;
const STARTER_STYLES: readonly StyleId[] = [
  "photorealistic",
  "anime",
  "digital-art",
  "3d-render",
  "watercolor",
  "nano-banana",
];

export default function OnboardingDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [step, setStep] = useState(0);
  const [style, setStyle] = useState<StyleId>(GENERATION_DEFAULTS.style);
  const [, navigate] = useLocation();
  const id = useId();

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (typeof el.showModal === "function" && !el.open) el.showModal();
    else el.setAttribute("open", "");
  }, []);

  const finish = (then?: () => void) => {
    markOnboardingCompleted(window.localStorage);
    void keepCompletionWithAccount();
    dialog.current?.close?.();
    onClose();
    then?.();
  };

  const last = step === STEPS.length - 1;
  return (
    <dialog
      ref={dialog}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(e) => {
        e.preventDefault();
        finish();
      }}
    >
      <div className="modal-box max-w-lg">
        <ol className="mb-4 flex gap-2" aria-label={`Step ${step + 1} of ${STEPS.length}`}>
          {STEPS.map((name, i) => (
            <li
              key={name}
              aria-current={i === step ? "step" : undefined}
              className={`h-1.5 flex-1 rounded-full ${i <= step ? "bg-primary" : "bg-base-300"}`}
            >
              <span className="sr-only">{name}</span>
            </li>
          ))}
        </ol>
        <h2 id={`${id}-title`} className="text-xl font-bold">
          {step === 0 ? "Welcome to PromptCanvas" : STEPS[step]}
        </h2>
        <div id={`${id}-body`} className="mt-2 text-base-content/85">
          {step === 0 && (
            <>
              <p>Turn a written prompt into an image in seconds, and keep everything you make in your history.</p>
              <ul className="mt-3 flex flex-col gap-1.5 text-sm">
                <li className="flex gap-2">
                  <PageIcon name="check" className="size-4 shrink-0 text-success" /> 5 free images every day
                </li>
                <li className="flex gap-2">
                  <PageIcon name="check" className="size-4 shrink-0 text-success" /> Works offline and installs as an
                  app
                </li>
              </ul>
            </>
          )}
          {step === 1 && (
            <>
              <p>
                {STYLE_IDS.length} styles, from photorealistic to pixel art. Pick one to start with; you can change it
                any time.
              </p>
              <div role="radiogroup" aria-label="Starting style" className="mt-3 grid grid-cols-3 gap-2">
                {STARTER_STYLES.map((sid) => {
                  const s = STYLE_BY_ID[sid];
                  const checked = style === sid;
                  return (
                    <label
                      key={sid}
                      className={`relative cursor-pointer overflow-hidden rounded-field border-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary ${checked ? "border-primary" : "border-transparent"}`}
                    >
                      <input
                        type="radio"
                        name={`${id}-style`}
                        className="sr-only"
                        checked={checked}
                        onChange={() => setStyle(sid)}
                      />
                      <img
                        src={stylePreviewSrc(sid)}
                        alt=""
                        width={96}
                        height={96}
                        className="aspect-square w-full object-cover"
                      />
                      <span className="block truncate bg-base-200 px-1 py-0.5 text-center text-xs font-medium">
                        {s.label}
                      </span>
                      {checked && (
                        <span className="absolute top-1 right-1 grid size-5 place-items-center rounded-full bg-primary text-primary-content">
                          <PageIcon name="check" className="size-3" />
                        </span>
                      )}
                    </label>
                  );
                })}
              </div>
              <p className="mt-2 text-xs text-base-content/70">Previews drawn by the built-in procedural renderer.</p>
            </>
          )}
          {step === 2 && (
            <>
              <p>Write what you want to see, choose a quality and a frame, and press Generate.</p>
              <p className="mt-3 text-sm">
                The built-in procedural renderer is always there; it paints shapes and light from your prompt, and it is
                not an AI model. Where this site also offers AI models, such as FLUX Schnell, Dev and Pro, they draw
                instead, and the quality field says what each level changes.
              </p>
            </>
          )}
        </div>
        <div className="modal-action items-center justify-between">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => finish()}>
            Skip
          </button>
          <div className="flex gap-2">
            {step > 0 && (
              <button type="button" className="btn btn-sm" onClick={() => setStep(step - 1)}>
                Back
              </button>
            )}
            {last ? (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={() => finish(() => navigate(buildGenerateLink({ style })))}
              >
                Get Started
              </button>
            ) : (
              <button type="button" className="btn btn-primary btn-sm" onClick={() => setStep(step + 1)}>
                Next
              </button>
            )}
          </div>
        </div>
      </div>
    </dialog>
  );
}
