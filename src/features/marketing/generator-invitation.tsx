// The home page's #generator section before the generator itself: for visitors, an invitation to
// sign in (no backend client is loaded for them); for a signed-in person, what stands there until the
// generator has loaded.
import type { ComponentType } from "react";
import { Link } from "wouter";
import { authRedirectPath } from "../../lib/auth-redirect";
import { Icon } from "../../ui/icons";

export type GeneratorLoader = () => Promise<{ default: ComponentType }>;

export function GeneratorInvitation({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="card border border-base-300 bg-gradient-to-br from-primary/10 to-secondary/10">
      <div className="card-body items-center py-12 text-center">
        <h2 id="generator-title" className="text-2xl font-bold sm:text-3xl">
          Try the generator
        </h2>
        <p className="max-w-xl text-base-content/80">
          Describe what you want to see, pick a style, quality and aspect ratio, and generate.
          {signedIn ? "" : " Sign in or create a free account to get five images a day."}
        </p>
        <div className="mt-2 flex flex-wrap justify-center gap-3">
          {!signedIn && (
            <Link to={authRedirectPath({ pathname: "/generate" })} className="btn btn-primary">
              Sign in to generate
              <Icon name="arrowRight" className="size-4" />
            </Link>
          )}
          <Link to="/generate" className={signedIn ? "btn btn-primary" : "btn btn-outline"}>
            Open the generator
          </Link>
          <Link to="/prompts" className="btn btn-ghost">
            Browse ready-made prompts
          </Link>
        </div>
      </div>
    </div>
  );
}
