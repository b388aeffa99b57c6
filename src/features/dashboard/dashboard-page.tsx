// /dashboard (signed in): today's usage with the reset countdown and the plan, the library's totals
// and newest images, and the quickest ways back into work.
import { useLiveQuery } from "dexie-react-hooks";
import { Link } from "wouter";
import { countGenerations } from "../../db/queries";
import { useSession } from "../../state/session-store";
import { Icon, type IconName } from "../../ui/icons";
import { PageHeader } from "../../ui/page-header";
import { LibrarySummary } from "./library-summary";
import { UsageCard, type QuotaHooks } from "./usage-card";

const SHORTCUTS: { label: string; to: string; icon: IconName; body: string }[] = [
  { label: "Generate", to: "/generate", icon: "sparkles", body: "Turn a prompt into an image." },
  { label: "History", to: "/history", icon: "history", body: "Everything you made, newest first." },
  { label: "Saved", to: "/my-generations", icon: "bookmark", body: "The images you kept." },
  { label: "Gallery", to: "/gallery", icon: "image", body: "See what others published." },
];

/** A person with nothing made yet is new here: welcomed, not welcomed back. */
function greeting(email: string | undefined, made: number | undefined): string {
  const who = email ? `, ${email}` : "";
  if (made === undefined) return `Hello${who}.`;
  return made > 0 ? `Welcome back${who}.` : `Welcome to PromptCanvas${who}. Your first image is one prompt away.`;
}

export default function DashboardPage({ quota }: { quota: QuotaHooks }) {
  const { user } = useSession();
  const made = useLiveQuery(() => (user ? countGenerations(user.id) : 0), [user?.id]);
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader title="Dashboard" lead={greeting(user?.email, made)} />
      <div className="mb-6 grid items-start gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <UsageCard quota={quota} />
        {user && <LibrarySummary userId={user.id} />}
      </div>
      <ul className="grid gap-4 sm:grid-cols-2">
        {SHORTCUTS.map((s) => (
          <li key={s.to}>
            <Link
              to={s.to}
              className="card h-full border border-base-300 bg-base-100 transition-colors hover:border-primary"
            >
              <div className="card-body flex-row items-center gap-4">
                <span className="grid size-11 shrink-0 place-items-center rounded-field bg-primary/10 text-primary">
                  <Icon name={s.icon} />
                </span>
                <div>
                  <h2 className="font-semibold">{s.label}</h2>
                  <p className="text-sm text-base-content/80">{s.body}</p>
                </div>
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
