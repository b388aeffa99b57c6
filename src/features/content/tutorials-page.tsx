// /tutorials: short, numbered walkthroughs of the product's real flows, each ending in a link that
// starts the flow.
import { Link } from "wouter";
import { PageHeader } from "../../ui/page-header";
import { buildGenerateLink } from "../../lib/generate-link";
import { REFERENCE_BY_ENGINE } from "./reference-engines";

type Tutorial = {
  id: string;
  title: string;
  minutes: number;
  intro: string;
  steps: string[];
  action: { label: string; to: string };
};

const TUTORIALS: Tutorial[] = [
  {
    id: "first-image",
    title: "Your first image",
    minutes: 2,
    intro: "From an empty account to a picture in your history.",
    steps: [
      "Create a free account on the sign-in page with your e-mail address and a password.",
      'Open Generate and write a prompt, for example "a mountain lake at sunset".',
      "Leave the style on Photorealistic, quality on standard and the ratio on 1:1.",
      "Press Generate. The preview shows progress, then the picture with your prompt as its description.",
      "The image is now in your History. Your Dashboard shows how many of today's five you have used and how many are left; the generator warns you once 2 or fewer remain.",
    ],
    action: {
      label: "Open the generator",
      to: buildGenerateLink({ prompt: "A mountain lake at sunset", style: "photorealistic" }),
    },
  },
  {
    id: "batches",
    title: "Batches and the queue",
    minutes: 3,
    intro: "Make several variations while you keep working.",
    steps: [
      "In the generator, switch on Batch mode and set the slider (1 to 10; 4 is the default).",
      "Press the button: instead of one image, that many tasks join the Generation Queue card.",
      "Choose how many images are drawn at once (1 to 4) under the slider before you queue, or with the minus and plus buttons on the queue card. Counters show Queued, Running, Done and Failed.",
      "Remove a single task with its remove button, or clear the whole queue.",
      "Each finished task appears in your history; each image counts toward the daily limit.",
    ],
    action: {
      label: "Try a batch",
      to: buildGenerateLink({ prompt: "A friendly robot beside a small planet", style: "3d-render", batch: 4 }),
    },
  },
  {
    id: "seeds",
    title: "Controlled variations with a seed",
    minutes: 3,
    intro: "Change one thing at a time and see exactly what it does.",
    steps: [
      "Generate a few times with an empty seed until one result is close to what you want.",
      "Enter a seed (any whole number) and generate: note the picture.",
      "Change one word in the prompt and generate again with the same seed.",
      "Now keep the prompt and switch the style: the seed keeps the composition comparable.",
      "Clear the seed when you want fresh, random results again.",
    ],
    action: {
      label: "Start with seed 42",
      to: buildGenerateLink({ prompt: "A castle above a river in the fog", style: "fantasy", seed: 42 }),
    },
  },
  {
    id: "reference",
    title: "Using a reference image",
    minutes: 2,
    intro: "Borrow the colours and layout of a picture you already have.",
    steps: [
      "In the generator (or on the Advanced page), choose a reference image: any picture your browser can open, up to 4096 pixels a side. A small PNG, JPEG or GIF is sent as it is; any other picture, WebP included, is redrawn as a JPEG on your device; a file that is not a picture is refused at once.",
      `Write a prompt as usual. ${REFERENCE_BY_ENGINE}`,
      "Remove the reference any time before generating to go back to prompt-only.",
    ],
    action: { label: "Advanced options", to: "/advanced" },
  },
  {
    id: "install-offline",
    title: "Install the app and work offline",
    minutes: 2,
    intro: "Keep PromptCanvas one tap away, even without a connection.",
    steps: [
      "In Chrome or Edge, press Install app in the top bar, or choose Install in the browser menu. On iPhone, use Share, then Add to Home Screen.",
      "Open the installed app: it has its own window and shortcuts to Generate and History.",
      "Pages you have visited open offline, and so does your history: every thumbnail, your saved images and your newest images up to the budget on the account page.",
      "Prompts submitted offline wait in the queue on your device and run when the connection returns.",
    ],
    action: { label: "Read the offline FAQ", to: "/faq" },
  },
  {
    id: "gallery",
    title: "Share to the public gallery",
    minutes: 1,
    intro: "Your images are private until you publish one.",
    steps: [
      "Open History and pick an image.",
      "Choose Publish. The server checks the prompt and the image first; if the prompt check refuses the prompt, or the image check finds the picture sexually explicit, the image stays private and you are told why. Otherwise it appears in the public gallery. Choose Unpublish to make it private again.",
      "A published image has its own page, /gallery/ followed by its id: open it from the gallery's large view, then copy its link or share it. Anyone can open it, signed in or not.",
      "Browse and search everyone's published images in the Gallery. Signed in, you can report one that breaks the content policy with Report: it disappears for you at once, and operators review what is reported.",
    ],
    action: { label: "Browse the gallery", to: "/gallery" },
  },
];

export default function TutorialsPage() {
  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader
        title="Tutorials"
        lead="Short walkthroughs of everything PromptCanvas does, from your first image to batches, seeds, reference images and working offline."
      />
      <nav aria-label="Tutorials on this page" className="mb-10 rounded-box bg-base-200 p-4">
        <ol className="grid gap-1 sm:grid-cols-2">
          {TUTORIALS.map((t, i) => (
            <li key={t.id}>
              <a href={`#${t.id}`} className="link link-hover">
                {i + 1}. {t.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="flex flex-col gap-12">
        {TUTORIALS.map((t, i) => (
          <section key={t.id} id={t.id} aria-labelledby={`${t.id}-title`} className="scroll-mt-24">
            <p className="text-sm text-base-content/80">
              Tutorial {i + 1} · {t.minutes} min
            </p>
            <h2 id={`${t.id}-title`} className="text-2xl font-bold">
              {t.title}
            </h2>
            <p className="mt-1 text-base-content/85">{t.intro}</p>
            <ol className="mt-4 flex flex-col gap-3">
              {t.steps.map((step, n) => (
                <li key={step} className="flex gap-3">
                  <span className="grid size-7 shrink-0 place-items-center rounded-full bg-primary/15 text-sm font-bold text-primary">
                    {n + 1}
                  </span>
                  <span className="pt-0.5">{step}</span>
                </li>
              ))}
            </ol>
            <Link to={t.action.to} className="btn btn-sm btn-outline mt-4">
              {t.action.label}
            </Link>
          </section>
        ))}
      </div>
    </div>
  );
}
