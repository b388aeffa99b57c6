// The page's side of the upscale: one worker (upscale-worker.ts) per open dialog, started when the dialog
// opens and ended when it closes (which frees the model and its GPU memory); a job at a time, whose
// answers arrive as events and whose end is a promise: the upscaled PNG, or "cancelled".
import UpscaleWorker from "./upscale-worker?worker";
import type { UpscaleAnswer, UpscaleRequest } from "./upscale-protocol";
import type { BackendName, ModelSize, UpscaleScale } from "./upscale-models";

export type Upscaled = {
  image: Blob;
  width: number;
  height: number;
  ms: number;
  backend: BackendName;
  model: ModelSize;
};
export type UpscaleJob = { result: Promise<Upscaled | "cancelled">; cancel: () => void };
export type UpscaleOptions = {
  scale: UpscaleScale;
  onStarted?: (backend: BackendName, model: ModelSize) => void;
  onProgress?: (done: number) => void;
};

/** Something that speaks the protocol: the real worker, or in unit tests one that answers in-process. */
export type Port = Pick<Worker, "postMessage" | "addEventListener" | "removeEventListener" | "terminate">;

export class UpscaleSession {
  private nextJob = 1;
  private readonly port: Port;

  constructor(port: Port = new UpscaleWorker()) {
    this.port = port;
  }

  run(image: Blob, { scale, onStarted, onProgress }: UpscaleOptions): UpscaleJob {
    const job = this.nextJob++;
    let started: { backend: BackendName; model: ModelSize } | undefined;
    let stop: () => void = () => undefined;
    const result = new Promise<Upscaled | "cancelled">((resolve, reject) => {
      const listen = (event: MessageEvent<UpscaleAnswer>) => {
        const answer = event.data;
        if (answer.job !== job) return;
        if (answer.type === "started") {
          started = { backend: answer.backend, model: answer.model };
          onStarted?.(answer.backend, answer.model);
          return;
        }
        if (answer.type === "progress") return onProgress?.(answer.done);
        this.port.removeEventListener("message", listen as EventListener);
        if (answer.type === "done") {
          const { image: png, width, height, ms } = answer;
          resolve({ image: png, width, height, ms, backend: started!.backend, model: started!.model });
        } else if (answer.type === "cancelled") resolve("cancelled");
        else reject(new Error(answer.message));
      };
      this.port.addEventListener("message", listen as EventListener);
      stop = () => {
        this.port.postMessage({ type: "cancel", job } satisfies UpscaleRequest);
      };
    });
    this.port.postMessage({ type: "upscale", job, image, scale } satisfies UpscaleRequest);
    return { result, cancel: () => stop() };
  }

  dispose(): void {
    this.port.terminate();
  }
}
