// The frame of a blog post: breadcrumb trail, title, dates and reading time, the body in readable
// measure, links to the other posts and a call to action.
import type { ReactNode } from "react";
import { Link } from "wouter";
import { Icon } from "../../../ui/icons";
import { POSTS, postByPath } from "./posts";
import { Breadcrumbs } from "../breadcrumbs";

export const PROSE =
  "text-base leading-relaxed text-base-content/90 [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-2 [&_h2]:mt-12 [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-base-content [&_h3]:mt-8 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-base-content [&_p]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mt-1.5 [&_code]:rounded [&_code]:bg-base-200 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:text-[0.9em] [&_blockquote]:mt-4 [&_blockquote]:border-l-4 [&_blockquote]:border-primary/50 [&_blockquote]:pl-4 [&_blockquote]:italic [&_table]:mt-4";

function formatDate(iso: string): string {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

export function PostLayout({ path, children }: { path: string; children: ReactNode }) {
  const post = postByPath(path)!;
  const others = POSTS.filter((p) => p.path !== path);
  return (
    <article className="mx-auto w-full max-w-3xl pb-8">
      <Breadcrumbs section={{ label: "Blog", to: "/blog" }} current={post.title} />
      <header>
        <h1 className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">{post.title}</h1>
        <p className="mt-3 text-lg text-base-content/80">{post.description}</p>
        <p className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-base-content/80">
          <span>
            Published <time dateTime={post.published}>{formatDate(post.published)}</time>
          </span>
          <span aria-hidden="true">·</span>
          <span>{post.readingMinutes} min read</span>
          <span aria-hidden="true">·</span>
          <span>By the PromptCanvas team</span>
        </p>
      </header>
      <div className={`mt-8 ${PROSE}`}>{children}</div>
      <aside aria-labelledby="more-posts" className="mt-14 border-t border-base-300 pt-8">
        <h2 id="more-posts" className="text-xl font-bold">
          Keep reading
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2">
          {others.map((p) => (
            <li key={p.path}>
              <Link
                to={p.path}
                className="card h-full border border-base-300 bg-base-100 transition-colors hover:border-primary"
              >
                <span className="card-body">
                  <span className="card-title text-base">{p.title}</span>
                  <span className="text-sm text-base-content/80">{p.readingMinutes} min read</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap items-center justify-between gap-4 rounded-box bg-base-200 p-6">
          <p className="font-semibold">Ready to try it? Five images a day are free.</p>
          <Link to="/generate" className="btn btn-primary">
            Open the generator
            <Icon name="arrowRight" className="size-4" />
          </Link>
        </div>
      </aside>
    </article>
  );
}
