// /blog/complete-guide-ai-image-generation: the long-form guide to every setting of the generator.
import { NEGATIVE_PROMPT_MAX_CHARS, PROMPT_MAX_CHARS } from "#shared/vocabulary/generation.ts";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { Link } from "wouter";
import { REPORTS_TO_HOLD } from "#shared/vocabulary/moderation.ts";
import { buildGenerateLink } from "../../../lib/generate-link";
import { REFERENCE_BY_ENGINE } from "../reference-engines";
import { PostLayout } from "./post-layout";

const PATH = "/blog/complete-guide-ai-image-generation";

export default function CompleteGuidePost() {
  return (
    <PostLayout path={PATH}>
      <p>
        Text-to-image generation turns a sentence into a picture. You describe what you want to see, choose how it
        should look, and a renderer draws it. This guide walks through the whole process in PromptCanvas, from the first
        prompt to a finished, downloaded image, and explains what every setting really does, so you can stop guessing
        and start steering.
      </p>

      <h2>How a prompt becomes a picture</h2>
      <p>
        When you press Generate, the prompt and your settings go to the server, which checks the prompt against the{" "}
        <Link to="/content-policy">content policy</Link>, checks your daily limit, reserves one image for you and hands
        the request to an image engine. The finished picture is stored in private storage under your account, a row is
        added to your history, and the reserved image is counted. If anything fails on the way, the reservation is
        released and nothing is counted.
      </p>
      <p>Which engine draws the picture depends on how the installation is set up:</p>
      <ul>
        <li>
          <strong>The built-in procedural renderer</strong> is always there. It is not an AI model: it recognises a
          vocabulary of subjects (mountains, sea, city, forest, cat, dog, robot, castle, planet and more) and colour
          words, and draws them in the chosen style with code. It works with no account anywhere, and gives the same
          picture for the same inputs; another seed frames the same subject differently (horizon, distance, light and
          season), so a batch of four shows four takes.
        </li>
        <li>
          <strong>FLUX models through Replicate</strong>, when the operator has added a Replicate key: FLUX Schnell for
          standard quality, FLUX Dev for high and FLUX 1.1 Pro for ultra. These read the whole prompt, not just a
          vocabulary. The Nano Banana style then uses Google's nano-banana model.
        </li>
        <li>
          Runware, OpenAI-style image APIs, Black Forest Labs, fal and Google Gemini can also be configured by the
          operator, as can their own GPU server running AUTOMATIC1111/Forge or ComfyUI; where several are, the generator
          lets you choose the engine.
        </li>
      </ul>
      <p>Everything below applies to all of them; where an engine treats a setting differently, the guide says so.</p>

      <h2>Step 1: write the prompt</h2>
      <p>
        A prompt can be up to {PROMPT_MAX_CHARS} characters. Longer is not better: a clear subject, a setting and the
        light usually beat a paragraph of adjectives. A reliable shape is <em>subject, setting, light, colour</em>:
      </p>
      <blockquote>
        A ginger cat in a snowy forest at dawn, warm light from a cabin window, orange and deep blue.
      </blockquote>
      <p>
        Put the most important thing first. Models pay more attention to the start of a prompt, and the built-in
        renderer draws the subjects in the order you name them. The{" "}
        <Link to="/blog/prompt-engineering-masterclass">prompt engineering masterclass</Link> goes much deeper.
      </p>

      <h2>Step 2: choose a style</h2>
      <p>
        The style sets the medium: a photograph, an oil painting, a comic panel, pixel art. PromptCanvas has{" "}
        {STYLE_IDS.length} styles, and seven are marked popular: Photorealistic, Anime, Digital Art, 3D Render, Fantasy,
        Neon and Nano Banana (the newest). With the built-in renderer the style changes the drawing technique and
        palette; with a remote model, the style name is added to the end of your prompt.
      </p>
      <p>
        Choose the style in the picker rather than writing it into the prompt. Writing &ldquo;watercolor&rdquo; while
        the picker says Photorealistic gives the model two conflicting instructions. See every style with a preview on
        the <Link to="/styles">styles page</Link>, or read the{" "}
        <Link to="/blog/ai-art-styles-guide">guide to art styles</Link>.
      </p>

      <h2>Step 3: quality and aspect ratio</h2>
      <h3>Quality</h3>
      <p>
        Quality has three levels: standard, high and ultra. The built-in renderer draws the same scene at every level,
        finer at each step: high lays finer marks and texture, and ultra also draws the scene at twice the size and
        scales it down, which takes longer. With Replicate configured the levels pick the model (FLUX Schnell, Dev, 1.1
        Pro), trading speed for detail; other AI engines take more steps or another model, and OpenAI-style APIs and
        Google Gemini draw the same way at every level. The generator says what quality changes on the engine that will
        draw. Your default quality is saved in your account settings.
      </p>
      <h3>Aspect ratio</h3>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Ratio</th>
            <th scope="col">Pixels</th>
            <th scope="col">Good for</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">1:1</th>
            <td>1024×1024</td>
            <td>Feeds, avatars, product tiles, album art</td>
          </tr>
          <tr>
            <th scope="row">16:9</th>
            <td>1536×1024</td>
            <td>Landscapes, headers, slides, video thumbnails</td>
          </tr>
          <tr>
            <th scope="row">9:16</th>
            <td>1024×1536</td>
            <td>Portraits, stories, phone wallpapers, posters</td>
          </tr>
        </tbody>
      </table>
      <p>
        Pick the ratio for where the image will be used, not for the subject alone: a portrait for a web header still
        wants 16:9, with the person placed to one side.
      </p>

      <h2>Step 4: the optional controls</h2>
      <h3>Negative prompt</h3>
      <p>
        Up to {NEGATIVE_PROMPT_MAX_CHARS} characters listing what should stay out:{" "}
        <code>text, watermark, people, blur</code>. The built-in renderer removes named subjects and colours; Runware
        passes the negative prompt to its model. FLUX models on Replicate take no negative prompt, so there it has no
        effect; rephrase the main prompt instead.
      </p>
      <h3>Seed</h3>
      <p>
        Every picture starts from a random number, the seed. Leave it empty for a new picture each time; set it to any
        whole number to make results repeatable. The same prompt, style, size and seed give the same picture, which
        turns prompt writing into a controlled experiment: change one word, keep the seed, and the difference you see
        comes from that word.
      </p>
      <h3>Reference image</h3>
      <p>
        Attach a picture to steer the result. {REFERENCE_BY_ENGINE} It must be a picture your browser can open (up to
        4096 pixels a side): a small PNG, JPEG or GIF is sent as it is, and any other picture, WebP included, is redrawn
        as a JPEG on your device first. You can remove it again before generating.
      </p>
      <h3>Batch mode</h3>
      <p>
        Batch mode queues 1 to 10 copies of the request (4 by default) instead of generating once. The queue runs up to
        4 at a time (2 by default; set it beside the batch count before you queue, or on the queue card), shows counters
        for queued, running, done and failed tasks, and keeps going while you work on the next prompt. Each image in a
        batch counts against your daily limit.
      </p>
      <p>
        Every one of these options is explained with a working form on the <Link to="/advanced">advanced options</Link>{" "}
        page.
      </p>

      <h2>Step 5: generate, review, repeat</h2>
      <p>
        While the image is being made, the preview shows progress. The result appears with your prompt as its
        description; earlier results sit below it as thumbnails. Good workflow:
      </p>
      <ol>
        <li>Start with a short prompt and no seed, and generate two or three times.</li>
        <li>When one result is close, note its seed, set it, and refine the wording one change at a time.</li>
        <li>Switch styles with the same seed to compare looks.</li>
        <li>Only then raise quality for the final version.</li>
      </ol>

      <h2>Your history, offline and on every device</h2>
      <p>
        Every image is kept in your history, newest first, and synchronised to every device you sign in on. The app is
        offline-first: once loaded, the pages you have visited and your history open without a connection (each device
        keeps every thumbnail, your saved images and your newest images up to a budget you choose), and prompts you
        submit offline wait on your device and run when you are back online. Install it from your browser to get it in
        its own window.
      </p>

      <h2>Limits, rights and safety</h2>
      <p>
        Free accounts make 5 images a day, reset at midnight in your time zone; the server keeps the count, and failed
        generations are never counted. You may use your images commercially within the{" "}
        <Link to="/content-policy">content policy</Link> and the <Link to="/terms">terms</Link>.
      </p>
      <p>
        Before anything is drawn, the server checks the prompt (not the negative prompt) against a kept list of English
        sexual and abusive words, spelt plainly or disguised with numbers, look-alike letters, spaces or repeated
        letters, and against terms the operators of the site add. A match is refused with{" "}
        <strong>Content Policy Violation</strong>: nothing is drawn or stored and your limit is not charged. When you
        publish an image, the prompt is checked again and the image is scored by a classifier on the server; an image it
        finds explicit stays private, and you are told why.
      </p>

      <h2>Sharing and reporting</h2>
      <p>
        A published image has its own page at <code>/gallery/&lt;id&gt;</code>: anyone can open it, signed in or not,
        see its prompt, style and settings, and press Make one like this to open the generator with its recipe. Copy
        link is on that page, in the gallery&rsquo;s large view and in each tile&rsquo;s menu, with Share beside it
        where the browser has a share sheet. Unpublish or delete the image and the link finds nothing.
      </p>
      <p>
        If a published image breaks the content policy, sign in and press Report on it, choose a reason and add a note
        if you like. It disappears for you at once; when {REPORTS_TO_HOLD} different people have reported it, it leaves
        the gallery until an operator of the site reviews it. Operators can restore it, remove it with a reason its
        owner sees, or also suspend the account from publishing. The{" "}
        <Link to="/content-policy#reporting">content policy</Link> has the details.
      </p>

      <h2>Try it now</h2>
      <p>
        Open the generator with this guide's example prompt already filled in:{" "}
        <Link
          to={buildGenerateLink({
            prompt: "A ginger cat in a snowy forest at dawn, warm light from a cabin window, orange and deep blue",
            style: "anime",
          })}
        >
          a ginger cat in a snowy forest, in the Anime style
        </Link>
        .
      </p>
    </PostLayout>
  );
}
