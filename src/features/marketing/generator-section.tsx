// The home page's #generator section for a signed-in person: the same generator as /generate, whose
// code (and the database and backend clients it needs) loads only when the section nears the
// viewport. This module itself loads only for someone with a session, so a visitor's first load
// carries none of it.
import { Suspense, lazy, useEffect, useRef, useState, type ComponentType, type LazyExoticComponent } from "react";
import { Loading } from "../../ui/loading";
import { GeneratorInvitation, type GeneratorLoader } from "./generator-invitation";

/** Starts loading the generator this far before the section scrolls into view. */
const GENERATOR_PRELOAD_MARGIN = "600px 0px";

const lazyGenerators = new WeakMap<GeneratorLoader, LazyExoticComponent<ComponentType>>();

function lazyGenerator(load: GeneratorLoader): LazyExoticComponent<ComponentType> {
  let component = lazyGenerators.get(load);
  if (!component) {
    component = lazy(load);
    lazyGenerators.set(load, component);
  }
  return component;
}

export default function GeneratorSection({ load }: { load: GeneratorLoader }) {
  const anchor = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const el = anchor.current;
    if (near || !el) return;
    if (typeof IntersectionObserver !== "function") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: GENERATOR_PRELOAD_MARGIN },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);

  if (!near) {
    return (
      <div ref={anchor}>
        <GeneratorInvitation signedIn />
      </div>
    );
  }
  const Generator = lazyGenerator(load);
  return (
    <div className="flex flex-col gap-4">
      <h2 id="generator-title" className="text-2xl font-bold sm:text-3xl">
        Generate an image
      </h2>
      <Suspense fallback={<Loading label="Loading the generator…" />}>
        <Generator />
      </Suspense>
    </div>
  );
}
