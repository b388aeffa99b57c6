// /terms: the rules for using the product and its images, written to match what the product does
// (daily limits enforced on the server, plans not yet purchasable, images private until published, checks,
// reports and review of published images as the content policy describes them).
import { Link } from "wouter";
import { LegalLayout, type LegalSection } from "./legal-layout";
import { OperatorContact } from "./operator-contact";

const SECTIONS: LegalSection[] = [
  {
    id: "agreement",
    title: "Using PromptCanvas",
    body: (
      <p>
        By creating an account or using PromptCanvas you agree to these terms, the{" "}
        <Link to="/content-policy">content policy</Link> and the <Link to="/privacy">privacy policy</Link>. You can
        browse the public pages without an account; generating images requires one.
      </p>
    ),
  },
  {
    id: "account",
    title: "Your account",
    body: (
      <ul>
        <li>
          You need a valid e-mail address. Keep your password to yourself; you are responsible for what is done with
          your account.
        </li>
        <li>You must be old enough to agree to these terms where you live, and at least 13.</li>
        <li>One person, one free account: creating accounts to get around the daily limit is not allowed.</li>
      </ul>
    ),
  },
  {
    id: "service",
    title: "What the service does",
    body: (
      <>
        <p>
          PromptCanvas turns prompts into images using either its built-in procedural renderer (not an AI model) or,
          where the operator has configured one, an external image model such as FLUX. Which engine drew each image is
          recorded with it. Results vary; we do not promise that an image will match your prompt.
        </p>
        <p>
          Free accounts may generate 5 images a day; the count resets at midnight in your time zone and is enforced on
          our server. Failed generations do not count.
        </p>
      </>
    ),
  },
  {
    id: "plans",
    title: "Plans and payment",
    body: (
      <p>
        The Creator and Pro plans shown on the <Link to="/pricing">pricing page</Link> are monthly subscriptions paid by
        card through Stripe, whose checkout shows the price before you pay. A plan renews each month until you cancel it
        in Manage billing on your billing page; a cancelled plan stays until the end of the month paid for, and a
        renewal that cannot be charged keeps it for a short grace period. Where the operator has not connected card
        payments, a paid plan's button only shows a notice and nothing is charged.
      </p>
    ),
  },
  {
    id: "your-images",
    title: "Your prompts and images",
    body: (
      <>
        <p>
          You keep whatever rights you have in your prompts and reference images. As far as we are concerned, the images
          you generate are yours to use, including commercially, within the content policy. Images drawn by an external
          model are also subject to that model provider's terms.
        </p>
        <p>
          Some places do not grant copyright to machine-made images, so you may not be able to stop others from copying
          them. You are responsible for how you use your images, including not infringing others' trademarks, likenesses
          or copyrights.
        </p>
        <p>
          Your images are private. If you publish one to the public gallery, you allow us to show it, its prompt and its
          settings to anyone, in the gallery and at its own link, until you unpublish or delete it or an operator
          removes it.
        </p>
      </>
    ),
  },
  {
    id: "acceptable-use",
    title: "Acceptable use",
    body: (
      <>
        <p>
          Follow the <Link to="/content-policy">content policy</Link>. Do not attack, overload or probe the service, get
          around limits or security, or use it to break the law.
        </p>
        <p>
          Prompts are checked before anything is drawn, and published images before they appear; what fails a check is
          refused, as the content policy describes. Anyone signed in can report a published image; reported images, and
          images that reports or the checks took out of the gallery, are reviewed by the operators of this site, who may
          restore an image, remove it from the gallery with a reason you will see on it, or also suspend your account
          from publishing for a set time. Each such decision is recorded. A suspension stops publishing only: you can
          still generate, keep and download your images.
        </p>
        <p>
          <OperatorContact purpose="To question a decision" />
        </p>
      </>
    ),
  },
  {
    id: "availability",
    title: "Availability and changes",
    body: (
      <p>
        We aim to keep PromptCanvas available around the clock, but it is provided as is, without guarantees of
        availability or fitness for a particular purpose. Features may change. If we change these terms in a way that
        matters, we will say so on this page and update the date above.
      </p>
    ),
  },
  {
    id: "liability",
    title: "Liability",
    body: (
      <p>
        To the extent the law allows, we are not liable for indirect or consequential losses, or for loss of images you
        did not download. Nothing in these terms limits rights you have under consumer law that cannot be limited.
      </p>
    ),
  },
  {
    id: "ending",
    title: "Ending your use",
    body: (
      <p>
        You can stop using PromptCanvas at any time and delete your images from your history. You can close your account
        yourself with Delete account on the <Link to="/account">account page</Link>; closing it deletes your images and
        every record linked to it.
      </p>
    ),
  },
];

export default function TermsPage() {
  return (
    <LegalLayout
      title="Terms of Service"
      updated="2026-11-26"
      lead={<p>The rules for using PromptCanvas and the images you make with it, in plain language.</p>}
      sections={SECTIONS}
    />
  );
}
