// /privacy: exactly what the product stores and where, who receives what, and how to remove it. It
// follows the schema (supabase/migrations), the client's storage (src/db, localStorage) and the sign-in
// service's limits (supabase/local/auth/rate-limits.ts, as hosted GoTrue counts them: per IP address).
import { Link } from "wouter";
import { LegalLayout, type LegalSection } from "./legal-layout";
import { OperatorContact } from "./operator-contact";

const SECTIONS: LegalSection[] = [
  {
    id: "summary",
    title: "In short",
    body: (
      <ul>
        <li>
          We store your e-mail address, your generated images and their settings, your preferences and your daily usage.
        </li>
        <li>Your prompt history stays on your device.</li>
        <li>We record a few technical events (failed tasks, errors, page speed) to keep the service working.</li>
        <li>There are no advertising or third-party tracking scripts, and we do not sell data.</li>
        <li>When an external image provider is configured, it receives your prompt to draw the picture.</li>
        <li>
          When you publish an image, its check scores are kept with it; reports about it, and what the operators of this
          site decided, are kept for review.
        </li>
      </ul>
    ),
  },
  {
    id: "account",
    title: "Your account",
    body: (
      <>
        <p>
          To sign in we keep your <strong>e-mail address</strong> and a salted hash of your password (never the password
          itself), when your address was confirmed, and your sign-in sessions and refresh tokens.
        </p>
        <p>
          To slow down password guessing, the sign-in service limits how many sign-in, sign-up and similar requests come
          from one IP address in a few minutes. It counts them in memory, per IP address and never per account, and
          forgets the count when it is restarted. Supabase, which runs the sign-in service of a hosted site, also logs
          the requests it answers, with the IP address they came from, under its own terms.
        </p>
        <p>We send e-mail only for account tasks you start, such as resetting your password or a change of address.</p>
      </>
    ),
  },
  {
    id: "images",
    title: "Your images and generations",
    body: (
      <>
        <p>
          Each image you generate is stored as a file in <strong>private storage</strong> in a folder that only your
          account can read. Beside it we keep a record (a row in the <code>generations</code> table) with the prompt,
          negative prompt, style, quality, aspect ratio, width and height, seed, which provider and model drew it, when
          it was made, and whether you saved it or published it.
        </p>
        <p>
          Nobody else can see your images or their prompts unless you <strong>publish</strong> one to the public
          gallery. A published image, its prompt and its settings can be seen by anyone, in the gallery and at its own
          link, until you unpublish or delete it or an operator removes it.
        </p>
        <p>
          Your <strong>collections</strong> are kept under your account too: each one&rsquo;s name, when it was made and
          changed, and either which of your images it holds (and when each was added) or, for a smart collection, its
          filter. Only you can see them; they go when you delete them or your account.
        </p>
      </>
    ),
  },
  {
    id: "moderation",
    title: "Publishing checks, reports and review",
    body: (
      <>
        <p>
          When you publish an image, the server checks its prompt and scores the image with a classifier that runs
          inside this service (no image provider or other company is sent the image for it). The scores are kept in the
          image&rsquo;s record, with the time the check refused it if it did.
        </p>
        <p>
          When someone reports a published image, we keep their account id, the reason they chose, their note if they
          wrote one, and the time. Only the operators of this site can read reports; the image&rsquo;s owner and other
          people cannot, so they are not told who reported it.
        </p>
        <p>
          The operators of this site see the reported images and the ones the check refused, each with its prompt, the
          owner&rsquo;s e-mail address, the reports and the scores. Each decision they take is recorded with the
          operator&rsquo;s account, the time, the action and the reason; a suspension from publishing is kept with its
          end and reason, and you are told that your account is suspended when you try to publish. The terms they may
          add to the prompt check are kept with who added them.
        </p>
      </>
    ),
  },
  {
    id: "preferences-limits",
    title: "Preferences and daily limits",
    body: (
      <>
        <p>
          Your <strong>preferences</strong> are stored with your account: default style, quality and aspect ratio,
          whether notifications are on, whether you opted in to the public gallery, and your time zone (used to reset
          your daily limit at your local midnight).
        </p>
        <p>
          For the <strong>daily limit</strong> we keep how many images you generated today, when the count resets, and
          your plan tier. While a generation is running, a short-lived reservation holds one slot; it is removed when
          the image is stored or the generation fails.
        </p>
      </>
    ),
  },
  {
    id: "diagnostics",
    title: "Diagnostics we record",
    body: (
      <>
        <p>When you are signed in, the app records a small number of technical events with your account id:</p>
        <ul>
          <li>
            <code>app_events</code>: queue results (<code>queue_task_success</code> and <code>queue_task_fail</code>,
            with the provider and task id) and <code>error</code> events for uncaught errors, unhandled promise
            rejections and errors caught while drawing a page (the kind of error, message, source file without its
            query, line and column, and stack trace, shortened, with tokens, keys and e-mail addresses removed), each
            with the time it was stored.
          </li>
          <li>
            <code>web_vitals</code>: page-speed measurements (first paint, largest paint, layout shift, interaction
            latency, and first input delay where the browser reports it), each with its value, the change since the
            page's previous report, the measurement's id, the time, and a rating of good, needs improvement or poor that
            the server derives from the value.
          </li>
        </ul>
        <p>
          These are used only to find and fix problems. Signed-out visits record nothing. Clients can add these records
          but cannot read them back. Until they are sent (offline, or while the server cannot be reached) they wait in
          this browser: at most 200 for up to a week in IndexedDB, and, when a page closes before saving them, briefly
          in local storage. Signing out removes them.
        </p>
      </>
    ),
  },
  {
    id: "on-device",
    title: "What stays on your device",
    body: (
      <>
        <p>The app keeps some data in your browser so it works offline. It never leaves your device unless stated:</p>
        <ul>
          <li>
            <strong>Prompt history</strong>: the 20 most recent prompts of each account signed in on this browser, in
            IndexedDB. Each account sees only its own. It is not sent to us, so it is not on your other devices.
          </li>
          <li>
            <strong>Offline copies</strong>: generations and thumbnails you have loaded, queued tasks, and changes
            waiting to be sent (IndexedDB); pages and app files for offline use (the service worker cache).
          </li>
          <li>
            <strong>Settings</strong>: your theme and whether you finished the welcome tour (
            <code>onboarding_completed</code>), in local storage (when you are signed in, that you finished it is also
            kept with your account, so your other devices do not show it again); your sign-in session, with its tokens
            (IndexedDB, where the offline worker can read it), and a note of who is signed in, with no token (local
            storage); whether the sidebar is collapsed (a cookie that lasts 7 days).
          </li>
        </ul>
        <p>
          Signing out removes your account's offline data from the device. Sign out everywhere, on the account page,
          signs out every device within seconds of it being online: each one removes its copy of your library and keeps
          only work not yet sent (queued generations, unsent changes and your prompt history), out of sight until you
          sign in there again. Deleting your account removes all of it from every device that is online. Clearing site
          data in your browser removes all of it.
        </p>
      </>
    ),
  },
  {
    id: "providers",
    title: "Who receives your data",
    body: (
      <>
        <p>
          The service runs on <strong>Supabase</strong> (database, sign-in, file storage and server functions), which
          processes the data above on our behalf.
        </p>
        <p>
          Pictures are drawn by the built-in renderer on our own server by default. When the operator configures an
          external <strong>image provider</strong> (Replicate, Runware, an OpenAI-style image API, Black Forest Labs,
          fal or Google Gemini) or its own image server (AUTOMATIC1111/Forge or ComfyUI), that provider or server
          receives the prompt, the style, the requested size and seed, the negative prompt where it accepts one, and the
          reference image if you attached one. It does not receive your e-mail address. Each provider handles that data
          under its own privacy terms.
        </p>
        <p>No advertising networks, analytics services or other third-party trackers are loaded on any page.</p>
      </>
    ),
  },
  {
    id: "retention",
    title: "How long we keep it",
    body: (
      <p>
        Account data, images, generation records, preferences, limits and diagnostics are kept while your account
        exists. You can delete any image at any time from your history, which removes its record and its file. When an
        account is deleted, every record linked to it (generations, preferences, limits, events and page-speed
        measurements) is deleted with it. A report is deleted with the image it is about, or with the account that sent
        it. The record of an operator&rsquo;s decision about an image stays after the image is deleted, so that a later
        review can see it, and is deleted with its owner&rsquo;s account; a suspension is deleted with the account too.
      </p>
    ),
  },
  {
    id: "rights",
    title: "Your choices and rights",
    body: (
      <>
        <p>
          You can see and delete your images in History, change your preferences in Settings, publish or unpublish
          images, and sign out to remove offline data. You can close your account yourself with Delete account on the{" "}
          <Link to="/account">account page</Link>: it removes every image, record and setting of it at once.{" "}
          <OperatorContact purpose="To get a copy of your data" /> Where data-protection law gives you further rights
          (access, correction, deletion, objection), we will honour them.
        </p>
        <p>
          See also the <Link to="/terms">terms of service</Link> and the{" "}
          <Link to="/content-policy">content policy</Link>.
        </p>
      </>
    ),
  },
];

export default function PrivacyPage() {
  return (
    <LegalLayout
      title="Privacy Policy"
      updated="2026-11-26"
      lead={<p>What PromptCanvas stores about you, where it is kept, who receives it and how to remove it.</p>}
      sections={SECTIONS}
    />
  );
}
