// /content-policy: what may and may not be generated or published, what happens when a prompt is
// refused (the generator's "Content Policy Violation" error links here), and, plainly, that there is
// no moderation or report button yet: only an external image provider (when one is connected) checks
// prompts, and nobody reviews published images.
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { Link } from "wouter";
import { LegalLayout, type LegalSection } from "./legal-layout";

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
          PromptCanvas does not check prompts itself, and the built-in renderer refuses nothing: this policy is yours to
          follow. When the operator connects an external image provider, that provider checks prompts and results with
          its own filters. When it refuses one, the generator shows <strong>Content Policy Violation</strong>:
          &ldquo;Your prompt contains restricted content. Please modify it.&rdquo; Nothing is stored, and the attempt
          does not count against your daily limit.
        </p>
        <p>
          A provider's refusals are automatic and sometimes wrong. If an innocent prompt is refused, rephrase it (for
          example, describe clothing or context more clearly).
        </p>
      </>
    ),
  },
  {
    id: "gallery",
    title: "Publishing to the gallery",
    body: (
      <p>
        Images are private until you publish them. Published images and their prompts are visible to everyone, so the
        rules above apply with extra care: no personal information, and nothing you would not want strangers to see.
        Nobody reviews published images before or after they appear; you can unpublish or delete yours at any time.
      </p>
    ),
  },
  {
    id: "reporting",
    title: "Reporting a problem",
    body: (
      <p>
        There is no report button and no moderation team yet. If you see a published image that breaks this policy,
        contact the operator of this site with a link to it; the <Link to="/terms">terms</Link> let them remove it and
        suspend the account that published it.
      </p>
    ),
  },
];

export default function ContentPolicyPage() {
  return (
    <LegalLayout
      title="Content Policy"
      lead={<p>What you may and may not create with PromptCanvas, and what happens when a prompt is refused.</p>}
      sections={SECTIONS}
    />
  );
}
