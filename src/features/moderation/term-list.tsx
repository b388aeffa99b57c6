// The extra terms the prompt check refuses besides its library's list: operators add and remove them
// here (public.moderation_terms; a term is kept lowercased and trimmed, 1 to 64 characters).
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { TERM_MAX_CHARS, normalizeTerm } from "#shared/vocabulary/moderation.ts";
import type { TermRow } from "../../api/moderation";
import { useOnline } from "../../lib/use-online";
import { Icon } from "../../ui/icons";

function useTerms() {
  const [terms, setTerms] = useState<TermRow[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const online = useOnline();
  const load = useCallback(async () => {
    const { listTerms } = await import("../../api/moderation");
    const result = await listTerms();
    if (result.ok) setTerms(result.value);
    else setProblem(result.error.error.message);
  }, []);
  useEffect(() => {
    if (online) void load();
  }, [online, load]);
  return { terms, problem, setProblem, reload: load, online };
}

export function TermList() {
  const id = useId();
  const { terms, problem, setProblem, reload, online } = useTerms();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);

  const change = async (run: () => Promise<{ ok: boolean; error?: { error: { message: string } } }>) => {
    setBusy(true);
    const result = await run();
    setBusy(false);
    if (!result.ok) {
      setProblem(result.error?.error.message ?? "That did not work.");
      return false;
    }
    setProblem(null);
    await reload();
    return true;
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const term = normalizeTerm(text);
    if (!term) {
      setProblem(`A term is 1 to ${TERM_MAX_CHARS} characters.`);
      return;
    }
    const { addTerm } = await import("../../api/moderation");
    if (await change(() => addTerm(term))) setText("");
  };

  const remove = async (term: string) => {
    const { removeTerm } = await import("../../api/moderation");
    await change(() => removeTerm(term));
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="mb-1 text-xl font-semibold">
        Refused terms
      </h2>
      <p className="mb-3 text-sm text-base-content/80">
        A prompt containing one of these is refused before anything is drawn, as the prompt check&apos;s own list is.
        The negative prompt is not checked.
      </p>
      <form onSubmit={(e) => void add(e)} className="mb-3 flex max-w-lg gap-2">
        <label className="input input-sm w-full">
          <span className="sr-only">New term</span>
          <input value={text} onChange={(e) => setText(e.target.value)} placeholder="A word or phrase" />
        </label>
        <button type="submit" className="btn btn-primary btn-sm" disabled={!online || busy}>
          Add term
        </button>
      </form>
      {problem && (
        <p role="alert" className="mb-2 text-sm text-error">
          {problem}
        </p>
      )}
      {terms === null ? (
        <p className="text-sm text-base-content/80">{online ? "Loading terms…" : "The terms need a connection."}</p>
      ) : terms.length === 0 ? (
        <p className="text-sm text-base-content/80">No extra terms yet.</p>
      ) : (
        <ul aria-label="Refused terms" className="flex flex-wrap gap-2">
          {terms.map((t) => (
            <li key={t.term} className="badge badge-lg gap-1 border-base-300 bg-base-200">
              <span>{t.term}</span>
              <button
                type="button"
                className="btn btn-ghost btn-xs btn-circle"
                aria-label={`Remove ${t.term}`}
                disabled={!online || busy}
                onClick={() => void remove(t.term)}
              >
                <Icon name="close" className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
