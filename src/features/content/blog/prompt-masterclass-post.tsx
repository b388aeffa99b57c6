// /blog/prompt-engineering-masterclass: how to write prompts that get what you mean, with worked
// examples that open in the generator.
import { NEGATIVE_PROMPT_MAX_CHARS, PROMPT_MAX_CHARS } from "#shared/vocabulary/generation.ts";
import { Link } from "wouter";
import { buildGenerateLink } from "../../../lib/generate-link";
import { PostLayout } from "./post-layout";

const PATH = "/blog/prompt-engineering-masterclass";

const FIXES = [
  [
    "The picture is cluttered",
    'Cut the prompt to one subject and one setting; add "plain background" or a negative prompt such as "clutter, crowd".',
  ],
  [
    "The subject is too small",
    'Name it first and give it a size or position: "close-up", "in the foreground", "filling the frame".',
  ],
  ["The colours are muddy", 'Name two or three colours and the light: "teal and orange, low evening sun".'],
  [
    "Unwanted text or watermarks",
    'Add "text, letters, watermark, signature" to the negative prompt (on engines that read it) and avoid words like "poster" or "sign" unless you want lettering.',
  ],
  [
    "Every try looks completely different",
    "Set a seed. Without one, each run starts from a new random picture and you cannot tell what your edit did.",
  ],
  [
    "The style is ignored",
    'Remove style words that fight the picker ("photo" with the Watercolor style) and let the picker decide.',
  ],
];

export default function PromptMasterclassPost() {
  return (
    <PostLayout path={PATH}>
      <p>
        A prompt is a brief for an artist who cannot ask questions. Everything you leave out is decided for you, and
        everything you put in competes for attention. This masterclass is about writing briefs that leave the right
        things to chance: a structure that works, the order of words, light and colour, negative prompts, seeds for
        controlled experiments, and fixes for the failures everyone meets.
      </p>

      <h2>1. A structure that works: five parts</h2>
      <p>Most good prompts answer five questions, in this order:</p>
      <ol>
        <li>
          <strong>Subject</strong>: what the picture is of. One main subject. &ldquo;A lighthouse&rdquo;, not &ldquo;a
          lighthouse, a ship, a whale and a storm&rdquo;.
        </li>
        <li>
          <strong>Action or state</strong>: what it is doing or how it is. &ldquo;Standing on a cliff&rdquo;,
          &ldquo;half buried in snow&rdquo;.
        </li>
        <li>
          <strong>Setting</strong>: where, and what surrounds it. &ldquo;Above a rough grey sea&rdquo;.
        </li>
        <li>
          <strong>Light and time</strong>: the strongest lever on mood. &ldquo;At dusk, the lamp just lit&rdquo;.
        </li>
        <li>
          <strong>Colour and detail</strong>: two or three colour words and one telling detail. &ldquo;Slate blue and
          amber, spray on the rocks&rdquo;.
        </li>
      </ol>
      <blockquote>
        A lighthouse standing on a cliff above a rough grey sea at dusk, the lamp just lit, slate blue and amber, spray
        on the rocks.
      </blockquote>
      <p>
        The style (medium) is the sixth part, and it belongs in the style picker, not in the text. PromptCanvas adds the
        style to the prompt for remote models itself.
      </p>

      <h2>2. Word order and weight</h2>
      <p>
        Earlier words carry more weight. If the lighthouse keeps coming out tiny, it is usually because the prompt
        spends its first half on the sea. Lead with what matters, then add context. Avoid stacking synonyms
        (&ldquo;beautiful, stunning, gorgeous&rdquo;): they add length without information. Specific nouns beat
        adjectives: &ldquo;pine forest&rdquo; tells more than &ldquo;lush trees&rdquo;.
      </p>
      <p>
        Keep it within the limit: PromptCanvas accepts up to {PROMPT_MAX_CHARS} characters, and most strong prompts use
        fewer than 200.
      </p>

      <h2>3. Light and colour do the heavy lifting</h2>
      <p>
        Light words change the whole picture: <code>golden hour</code>, <code>overcast</code>, <code>moonlit</code>,{" "}
        <code>neon reflections</code>, <code>candle light</code>, <code>backlit</code>. Colour words are understood by
        every engine, including the built-in procedural renderer, which pulls its palette towards the colours you name.
        Two or three colours give a coherent palette; five give noise.
      </p>

      <h2>4. Negative prompts: say what to leave out</h2>
      <p>
        The negative prompt (up to {NEGATIVE_PROMPT_MAX_CHARS} characters) lists what should not appear. Short lists of
        concrete things work best: <code>text, watermark, people, blur</code>. Do not write sentences (&ldquo;I don't
        want any people&rdquo;) and do not repeat the negative in the main prompt (&ldquo;a beach with no people&rdquo;
        can summon people). In PromptCanvas the built-in renderer drops the subjects and colours you list, and Runware
        passes the list to its model; FLUX models on Replicate do not accept a negative prompt, so there, rewrite the
        main prompt instead.
      </p>

      <h2>5. Seeds: run experiments, not lotteries</h2>
      <p>
        Without a seed, every run starts from new random noise, so two runs differ for reasons that have nothing to do
        with your words. Fix the seed and the randomness stays put. Then:
      </p>
      <ol>
        <li>Generate with an empty seed until a result is roughly right.</li>
        <li>Copy that result's seed into the seed field.</li>
        <li>Change one thing at a time (a word, the light, the style) and compare.</li>
        <li>
          Keep the changes that help. You now know <em>why</em> the final picture works.
        </li>
      </ol>
      <p>
        The same trick makes matching sets: keep the seed and style, change only the subject, and the results share
        composition and mood.
      </p>

      <h2>6. Use the frame</h2>
      <p>
        The aspect ratio is part of the prompt. A 16:9 frame invites panoramas and gives room for a headline; 9:16 suits
        a standing figure or a phone wallpaper. Mention placement when it matters: &ldquo;the hiker small in the lower
        left, mountains filling the frame&rdquo;.
      </p>

      <h2>7. Batches for exploration</h2>
      <p>
        Batch mode queues up to 10 variations of the same request. Use it at the start, with no seed, to see the range a
        prompt can produce, then switch to a fixed seed to refine the best one. Remember that each image counts towards
        your daily limit.
      </p>

      <h2>8. When it goes wrong</h2>
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Symptom</th>
              <th scope="col">Fix</th>
            </tr>
          </thead>
          <tbody>
            {FIXES.map(([symptom, fix]) => (
              <tr key={symptom}>
                <th scope="row" className="align-top">
                  {symptom}
                </th>
                <td>{fix}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>9. Knowing your engine</h2>
      <p>
        FLUX models read the whole prompt and reward precise language. The built-in procedural renderer, which every
        PromptCanvas installation has, is different: it is not an AI model, and it draws from a fixed vocabulary of
        subjects (sky, sea, beach, mountains, hills, city, forest, animals, flowers, planets, castles, robots, cars,
        houses, boats, lighthouses and more) plus colour words, time of day and weather. Prompts that name those things
        get the most out of it; abstract ideas such as &ldquo;nostalgia&rdquo; are ignored.
      </p>

      <h2>Practice</h2>
      <p>Open these in the generator and try the exercises:</p>
      <ul>
        <li>
          <Link
            to={buildGenerateLink({
              prompt: "A lighthouse on a cliff above a rough grey sea at dusk, slate blue and amber",
              style: "photorealistic",
              aspectRatio: "16:9",
              seed: 1234,
            })}
          >
            The lighthouse, seed 1234
          </Link>
          : change &ldquo;dusk&rdquo; to &ldquo;noon&rdquo; and compare.
        </li>
        <li>
          <Link
            to={buildGenerateLink({
              prompt: "A castle above a river in the fog, light rays",
              style: "fantasy",
              seed: 42,
            })}
          >
            The foggy castle, seed 42
          </Link>
          : switch the style to Gothic, then to Pixel Art, keeping the seed.
        </li>
        <li>
          <Link
            to={buildGenerateLink({
              prompt: "A quiet beach at sunset with boats",
              style: "watercolor",
              negativePrompt: "people, text",
            })}
          >
            The quiet beach, with a negative prompt
          </Link>
          : remove the negative prompt and see what comes back.
        </li>
      </ul>
      <p>
        For ready-made starting points, browse the <Link to="/prompt-library">prompt library</Link> and the{" "}
        <Link to="/templates">templates</Link>.
      </p>
    </PostLayout>
  );
}
