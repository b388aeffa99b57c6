// The generator (spec §2): the settings on the left, the preview and the Generation Queue card on the
// right. Records come from Dexie through useLiveQuery (the queue, the generations, the prompt
// history); work goes through the generation hooks. Used on /generate and in the home page's
// #generator section; the quota alert is handed in by the app (features do not import each other).
import { useState, type ReactNode } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { listPromptHistory, listTasks, recentGenerations } from "../../../db/queries";
import { authRedirectPath } from "../../../lib/auth-redirect";
import { buildGenerateLink, stashReferenceImage } from "../../../lib/generate-link";
import { useHydrated } from "../../../lib/use-hydrated";
import { useSession } from "../../../state/session-store";
import { showToast } from "../../../state/toasts";
import { useConcurrency, useGenerationActions, useRunProgress } from "../use-generation";
import { GeneratorForm, type FormNotice } from "./generator-form";
import { parseSeed, toRequest, type GeneratorSettings } from "./generator-settings";
import { PreviewPanel, RECENT_COUNT, RECENT_FIRST } from "./preview-panel";
import { PromptHistory } from "./prompt-history";
import { QueueCard } from "./queue-card";
import { useGeneratorForm } from "./use-generator-form";

const NO_TASKS: never[] = [];

/** Where 'Sign in' leads: back to this generator with the same settings filled in. */
function signInLink(s: GeneratorSettings): FormNotice["link"] {
  const back = buildGenerateLink({
    prompt: s.prompt,
    negativePrompt: s.negativePrompt,
    style: s.style,
    quality: s.quality,
    aspectRatio: s.aspectRatio,
    seed: parseSeed(s.seed) ?? null,
    batch: s.batch ? s.batchCount : null,
    reference: Boolean(s.referenceImage),
  });
  const [pathname, search] = back.split("?");
  return {
    label: "Sign in",
    to: authRedirectPath({ pathname, search }),
    onClick: () => {
      if (s.referenceImage) stashReferenceImage(s.referenceImage.dataUrl);
    },
  };
}

function noticeFor(message: string, s: GeneratorSettings): FormNotice {
  if (message === VALIDATION_MESSAGES.signInToGenerate) return { message, link: signInLink(s) };
  if (message === VALIDATION_MESSAGES.dailyLimit) return { message, link: { label: "Upgrade", to: "/pricing" } };
  return { message };
}

export function Generator({ limitAlert }: { limitAlert?: ReactNode }) {
  const hydrated = useHydrated();
  const session = useSession();
  const userId = hydrated ? (session.user?.id ?? null) : null;
  const { settings, update, reset } = useGeneratorForm(userId);
  const actions = useGenerationActions();
  const progress = useRunProgress();
  const concurrency = useConcurrency();
  const tasks = useLiveQuery(() => (userId ? listTasks(userId) : NO_TASKS), [userId], NO_TASKS);
  const generations = useLiveQuery(
    () => (userId ? recentGenerations(userId, RECENT_FIRST + RECENT_COUNT) : NO_TASKS),
    [userId],
    NO_TASKS,
  );
  const history = useLiveQuery(() => (hydrated ? listPromptHistory() : NO_TASKS), [hydrated], NO_TASKS);
  const [submitting, setSubmitting] = useState(false);
  const [notice, setNotice] = useState<FormNotice | null>(null);

  const generate = async () => {
    setNotice(null);
    if (!userId) {
      setNotice(noticeFor(VALIDATION_MESSAGES.signInToGenerate, settings));
      return;
    }
    setSubmitting(true);
    try {
      const result = await actions.generate(toRequest(settings));
      if (!result.ok) setNotice(noticeFor(result.message, settings));
      else if (settings.batch) {
        const n = result.taskIds.length;
        showToast({ tone: "success", title: `Added ${n} ${n === 1 ? "task" : "tasks"} to generation queue` });
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body p-4 sm:p-6">
          <GeneratorForm
            settings={settings}
            update={update}
            onReset={() => {
              setNotice(null);
              reset();
            }}
            onGenerate={() => void generate()}
            running={progress !== null}
            submitting={submitting}
            notice={notice}
            alert={limitAlert}
            afterPrompt={
              <PromptHistory
                entries={history}
                onPick={(p) => update("prompt", p)}
                onRemove={actions.removePrompt}
                onClear={actions.clearPrompts}
              />
            }
          />
        </div>
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        <PreviewPanel progress={progress} generations={generations} />
        <QueueCard
          tasks={tasks}
          concurrency={concurrency}
          onConcurrency={actions.setConcurrency}
          onClear={actions.clearTasks}
          onRemove={actions.removeTask}
          onRetry={actions.retry}
        />
      </div>
    </div>
  );
}
