// /blog: the posts, newest first, each with its summary and reading time.
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { Link } from "wouter";
import { PageHeader } from "../../../ui/page-header";
import { POSTS } from "./posts";

export default function BlogIndexPage() {
  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader
        title="Blog"
        lead={`Guides to making images from text: the complete guide to every setting, a tour of all ${STYLE_IDS.length} styles, and a masterclass in writing prompts.`}
      />
      <ul className="flex flex-col gap-5">
        {POSTS.map((post) => (
          <li key={post.path}>
            <article className="card border border-base-300 bg-base-100 transition-colors hover:border-primary">
              <div className="card-body">
                <p className="flex flex-wrap gap-2 text-xs">
                  {post.tags.map((t) => (
                    <span key={t} className="badge badge-soft badge-primary">
                      {t}
                    </span>
                  ))}
                </p>
                <h2 className="card-title text-xl">
                  <Link to={post.path} className="link-hover">
                    {post.title}
                  </Link>
                </h2>
                <p className="text-base-content/85">{post.description}</p>
                <p className="text-sm text-base-content/80">
                  <time dateTime={post.published}>{post.published}</time> · {post.readingMinutes} min read
                </p>
                <div className="card-actions">
                  <Link to={post.path} className="btn btn-sm btn-outline" aria-label={`Read the post: ${post.title}`}>
                    Read the post
                  </Link>
                </div>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
