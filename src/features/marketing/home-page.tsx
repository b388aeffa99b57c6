// The home page's frame (spec §1): hero, stats, feature claims and the generator and pricing
// anchors the hero's calls to action scroll to. The live generator and plan cards arrive later.
import { Link } from "wouter";
import { Icon, type IconName } from "../../ui/icons";

const STATS = [
  { value: "10M+", label: "images generated" },
  { value: "50+", label: "style options" },
  { value: "99.9%", label: "uptime" },
];

const FEATURES: { icon: IconName; title: string; body: string }[] = [
  { icon: "sparkles", title: "Under 30 seconds", body: "Most images are ready in well under half a minute." },
  { icon: "palette", title: "50+ styles", body: "Photorealistic, artistic, cartoon, abstract and more." },
  { icon: "image", title: "Up to 1024×1024", body: "Crisp images at up to 1024 by 1024 pixels." },
  { icon: "arrowUp", title: "Instant downloads", body: "Save as PNG, JPG or WebP in one click." },
  { icon: "check", title: "Commercial rights", body: "Use what you make in your own work, with full rights." },
  { icon: "refresh", title: "Always available", body: "24/7, on a global server network — and your queue survives going offline." },
];

const PLANS = [
  { name: "Free", price: "$0", detail: "5 generations a day, basic styles, community gallery" },
  { name: "Creator", price: "$9.99", detail: "Unlimited prompts, high-res downloads, priority queue", popular: true },
  { name: "Pro", price: "$19.99", detail: "Batch generation, custom styles, fastest speeds" },
];

export default function HomePage() {
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-20 pb-10">
      <section aria-labelledby="hero-title" className="pt-4 text-center sm:pt-10">
        <span className="badge badge-soft badge-primary mb-5">Works offline · Installable</span>
        <h1 id="hero-title" className="text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
          AI Text to Image Generator
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-base-content/80 text-pretty">
          Turn ideas into visuals in seconds. Choose from multiple styles, pick custom dimensions and download in
          ultra-high resolution.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <a href="#generator" className="btn btn-primary btn-lg">
            <Icon name="sparkles" />
            Start creating
          </a>
          <a href="#pricing" className="btn btn-outline btn-lg">
            See pricing
          </a>
        </div>
        <dl className="mx-auto mt-12 grid max-w-2xl grid-cols-3 gap-4">
          {STATS.map((s) => (
            <div key={s.label} className="flex flex-col rounded-box bg-base-200 px-2 py-4">
              <dt className="text-xs text-base-content/80 sm:text-sm">{s.label}</dt>
              <dd className="order-first text-2xl font-bold sm:text-3xl">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="features-title">
        <h2 id="features-title" className="text-center text-2xl font-bold sm:text-3xl">
          Everything you need to create
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((f) => (
            <li key={f.title} className="card border border-base-300 bg-base-100">
              <div className="card-body">
                <span className="grid size-10 place-items-center rounded-field bg-primary/10 text-primary">
                  <Icon name={f.icon} />
                </span>
                <h3 className="card-title text-base">{f.title}</h3>
                <p className="text-sm text-base-content/80">{f.body}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section id="generator" aria-labelledby="generator-title" className="scroll-mt-24">
        <div className="card border border-base-300 bg-gradient-to-br from-primary/10 to-secondary/10">
          <div className="card-body items-center py-12 text-center">
            <h2 id="generator-title" className="text-2xl font-bold sm:text-3xl">
              Start creating
            </h2>
            <p className="max-w-xl text-base-content/80">
              Describe what you want to see, pick a style, and generate. Sign in to get five free images a day.
            </p>
            <Link to="/generate" className="btn btn-primary mt-2">
              Open the generator
              <Icon name="arrowRight" className="size-4" />
            </Link>
          </div>
        </div>
      </section>

      <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-24">
        <h2 id="pricing-title" className="text-center text-2xl font-bold sm:text-3xl">
          Simple pricing
        </h2>
        <ul className="mt-8 grid gap-4 md:grid-cols-3">
          {PLANS.map((p) => (
            <li
              key={p.name}
              className={`card border bg-base-100 ${p.popular ? "border-primary shadow-lg" : "border-base-300"}`}
            >
              <div className="card-body">
                <div className="flex items-center justify-between">
                  <h3 className="card-title">{p.name}</h3>
                  {p.popular && <span className="badge badge-primary">Most popular</span>}
                </div>
                <p>
                  <span className="text-3xl font-bold">{p.price}</span>
                  <span className="text-base-content/80">/month</span>
                </p>
                <p className="text-sm text-base-content/80">{p.detail}</p>
              </div>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-center">
          <Link to="/pricing" className="link link-primary">
            Compare plans in detail
          </Link>
        </p>
      </section>
    </div>
  );
}
