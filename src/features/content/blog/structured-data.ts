// JSON-LD (schema.org) BlogPosting for a post, from the same facts the post page shows.
import { postByPath } from "./posts";

type Publisher = { id: string; name: string; url: string; logo: string };

/** The BlogPosting of the post at `path`, or null when no post lives there. */
export function blogPosting(path: string, origin: string, publisher: Publisher, image: string) {
  const post = postByPath(path);
  if (!post) return null;
  return {
    "@type": "BlogPosting",
    headline: post.title,
    description: post.description,
    datePublished: post.published,
    dateModified: post.updated,
    mainEntityOfPage: `${origin}${post.path}`,
    image,
    author: { "@type": "Organization", name: publisher.name, url: publisher.url },
    publisher: {
      "@id": publisher.id,
      "@type": "Organization",
      name: publisher.name,
      logo: { "@type": "ImageObject", url: publisher.logo },
    },
    keywords: post.tags.join(", "),
  };
}
