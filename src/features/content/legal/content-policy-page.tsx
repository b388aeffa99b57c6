// /content-policy: what may and may not be generated or published; the prompt check before anything is
// drawn (the generator's "Content Policy Violation" error links here); the image check before anything
// is published; reports and what three reporters do; what operators review and can do; and how to reach
// them. The reasons a report may give are this page's categories (#shared/vocabulary/moderation.ts).
import {
  REPORT_NOTE_MAX_CHARS,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  REPORTS_TO_HOLD,
  SUSPENSION_DAYS,
  EXPLICIT_THRESHOLD,
} from "#shared/vocabulary/moderation.ts";
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { Link } from "wouter";
import { LegalLayout, type LegalSection } from "./legal-layout";
import { OperatorContact } from "./operator-contact";

/** "1, 7, 30 or 365": the suspension lengths the moderation page offers. */
const SUSPENSION_LIST = `${SUSPENSION_DAYS.slice(0, -1).join(", ")} or ${SUSPENSION_DAYS[SUSPENSION_DAYS.length - 1]}`;

/** The generator's words for a refused prompt. */
const REFUSED = ERROR_CATALOGUE.nsfw_content;

const SECTIONS: LegalSection[] = [
  {
    id: "allowed",
    title: "What you can make",
    body: (
      <p>
        Almost anything creative: landscapes, characters, products, posters, art in any of the {STYLE_IDS.length}{" "}
        styles, for personal or commercial use. The rules below exist to keep people safe and the service lawful.
      </p>
    ),
  },
  {
    id: "not-allowed",
    title: "What you must not generate or publish",
    body: (
      <ul>
        <li>Sexual content involving minors, in any form. This is never allowed.</li>
        <li>Sexually explicit or pornographic images.</li>
        <li>
          Realistic images of real, identifiable people in situations that could deceive, harass, sexualise or defame
          them.
        </li>
        <li>Content that promotes violence, terrorism or self-harm, or graphic gore.</li>
        <li>
          Hate: images that attack people for their race, ethnicity, religion, nationality, disability, gender, sexual
          orientation or similar traits.
        </li>
        <li>Harassment, threats or bullying of anyone.</li>
        <li>Deceptive material meant to mislead, such as fake news photos, forged documents or impersonation.</li>
        <li>
          Images that infringe someone else's trademarks or copyright, or copy a living artist's work to pass it off as
          theirs.
        </li>
        <li>Anything illegal where you live or where the image will be used.</li>
      </ul>
    ),
  },
  {
    id: "refused",
    title: "When a prompt is refused",
    body: (
      <>
        <p>
          Before anything is drawn, the server checks the prompt against a kept list of English sexual and abusive words
          (the <code>obscenity</code> library&rsquo;s English set, and a few words for images this policy forbids that
          the set lacks), which also catches them spelt with numbers or look-alike letters, spaced out or with letters
          repeated (a number on its own, such as a room or a year, is read as a number), and against extra terms the
          operators of this site add. The negative prompt is not checked: it is where you name what you want kept out.
        </p>
        <p>
          A prompt that matches is refused with <strong>{REFUSED.title}</strong>: &ldquo;{REFUSED.message}&rdquo;
          Nothing is drawn or stored, and the attempt does not count against your daily limit. A queued task refused
          this way fails once, visibly, and is not retried. The same check runs again when you publish an image.
        </p>
        <p>
          A word list is automatic and sometimes wrong. If an innocent prompt is refused, rephrase it. When the operator
          connects an external image provider, that provider may also refuse prompts or results with its own filters;
          the generator then shows the same message.
        </p>
      </>
    ),
  },
  {
    id: "gallery",
    title: "Publishing to the gallery",
    body: (
      <>
        <p>
          Images are private until you publish them. Published images and their prompts are visible to everyone, at
          their own link (<code>/gallery/&lt;id&gt;</code>) too, so the rules above apply with extra care: no personal
          information, and nothing you would not want strangers to see. You can unpublish or delete yours at any time;
          its link then finds nothing.
        </p>
        <p>
          When you publish, the server checks the prompt again and then the image itself, with an image classifier that
          runs on the server (NSFWJS&rsquo;s MobileNet v2 model): it scores how likely the picture is a drawing,
          neutral, sexy, pornographic or hentai. When the model finds the picture likely sexually explicit (its
          pornographic and hentai scores together reach {Math.round(EXPLICIT_THRESHOLD * 100)}%), it is not published:
          you are told why, and it stays private in your history. A suggestive score alone never stops an image. The
          scores are kept with the image so that an operator can review the decision; an operator who finds it wrong can
          publish it.
        </p>
      </>
    ),
  },
  {
    id: "reporting",
    title: "Reporting an image",
    body: (
      <>
        <p>
          Anyone signed in can report a published image, from the gallery or from the image&rsquo;s own page, with one
          of these reasons and an optional note of up to {REPORT_NOTE_MAX_CHARS} characters:
        </p>
        <ul>
          {REPORT_REASONS.map((reason) => (
            <li key={reason}>{REPORT_REASON_LABELS[reason]}</li>
          ))}
        </ul>
        <p>
          The image disappears from the gallery for you at once. Each person can report an image once. When{" "}
          {REPORTS_TO_HOLD} different people have reported it, it leaves the gallery for everyone until an operator has
          reviewed it. Only operators read reports; the person who published the image is not told who reported it.
        </p>
      </>
    ),
  },
  {
    id: "review",
    title: "Review by the operators",
    body: (
      <>
        <p>
          The operators of this site review reported images, images the image check refused, and images taken out of the
          gallery by reports. For each they can:
        </p>
        <ul>
          <li>
            <strong>restore</strong> it: it returns to the gallery (or is published, if the image check had refused it);
          </li>
          <li>
            <strong>unpublish</strong> it, with a reason: it leaves the gallery, stays in its owner&rsquo;s history,
            where its tile is marked, and the owner sees &ldquo;Removed from the gallery:&rdquo; followed by that reason
            in its large view;
          </li>
          <li>
            <strong>unpublish it and suspend</strong> the account from publishing for {SUSPENSION_LIST} days: until then
            that person can still generate and keep images but cannot publish any, and is told so on trying.
          </li>
        </ul>
        <p>
          Every action is recorded: which operator, when, what and why. The <Link to="/terms">terms</Link> say what an
          operator may do, and the <Link to="/privacy">privacy policy</Link> what is kept.
        </p>
      </>
    ),
  },
  {
    id: "contact",
    title: "Contacting the operator",
    body: (
      <p>
        <OperatorContact purpose="For anything a report does not cover, such as an image of you or of your work, or an appeal against a decision" />
      </p>
    ),
  },
];

export default function ContentPolicyPage() {
  return (
    <LegalLayout
      title="Content Policy"
      updated="2026-11-26"
      lead={
        <p>
          What you may and may not create with PromptCanvas, how prompts and published images are checked, and how to
          report an image.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
