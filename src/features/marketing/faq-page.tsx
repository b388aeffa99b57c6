// /faq: every question, grouped, each answer in a native disclosure so the page stays short and
// the answers stay in the document for search engines and find-in-page.
import { Link } from "wouter";
import { PageHeader } from "../../ui/page-header";
import { FAQ } from "./faq-entries";
import { FaqItem } from "./faq-item";
import type { FaqEntry } from "./faq-teaser";

const GROUPS: FaqEntry["group"][] = ["Getting started", "Images and models", "Plans and limits", "Privacy and offline"];

export default function FaqPage() {
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader
        title="Frequently Asked Questions"
        lead="Plans and daily limits, the styles and models behind the pictures, image rights, privacy and offline use."
      />
      <div className="flex flex-col gap-10">
        {GROUPS.map((group) => (
          <section key={group} aria-labelledby={`faq-${group.replace(/\W+/g, "-").toLowerCase()}`}>
            <h2 id={`faq-${group.replace(/\W+/g, "-").toLowerCase()}`} className="mb-3 text-xl font-bold">
              {group}
            </h2>
            <div className="flex flex-col gap-2">
              {FAQ.filter((e) => e.group === group).map((entry) => (
                <FaqItem key={entry.id} entry={entry} />
              ))}
            </div>
          </section>
        ))}
      </div>
      <section aria-labelledby="faq-more" className="mt-12 rounded-box bg-base-200 p-6">
        <h2 id="faq-more" className="text-lg font-semibold">
          Still stuck?
        </h2>
        <p className="mt-1 text-base-content/85">
          The tutorials walk through the generator step by step, and the complete guide explains every setting.
        </p>
        <div className="mt-4 flex flex-wrap gap-2">
          <Link to="/tutorials" className="btn btn-sm btn-primary">
            Tutorials
          </Link>
          <Link to="/blog/complete-guide-ai-image-generation" className="btn btn-sm btn-outline">
            The complete guide
          </Link>
        </div>
      </section>
    </div>
  );
}
