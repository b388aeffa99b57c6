import { describe, expect, it } from "vitest";
import {
  BACKEND_ORDER,
  chooseBackend,
  isSoftwareRenderer,
  MODEL_FOR_SCALE,
  modelFor,
  modelUrl,
  SERVED_MODELS,
  wasmDir,
  type BackendName,
} from "../../../../src/features/upscale/upscale-models";

describe("the model a scale uses", () => {
  it("on a GPU is medium at 2× and slim at 4×; on the CPU slim at both; unless one is asked for", () => {
    expect(MODEL_FOR_SCALE).toEqual({ gpu: { 2: "medium", 4: "slim" }, cpu: { 2: "slim", 4: "slim" } });
    expect(modelFor(2, "webgpu")).toEqual({ size: "medium", scale: 2 });
    expect(modelFor(2, "webgl")).toEqual({ size: "medium", scale: 2 });
    expect(modelFor(4, "webgl")).toEqual({ size: "slim", scale: 4 });
    expect(modelFor(2, "wasm")).toEqual({ size: "slim", scale: 2 });
    expect(modelFor(2, "webgl-software")).toEqual({ size: "slim", scale: 2 });
    expect(modelFor(2, "wasm", "medium")).toEqual({ size: "medium", scale: 2 });
  });

  it("is served from the app's own origin, under a versioned path", () => {
    expect(modelUrl(modelFor(2, "webgl"))).toBe("/upscale/esrgan-medium-1.0.0/x2/model.json");
    expect(modelUrl(modelFor(4, "webgl"))).toBe("/upscale/esrgan-slim-1.0.0/x4/model.json");
    expect(wasmDir()).toBe("/upscale/tfjs-wasm-4.22.0/");
    for (const model of SERVED_MODELS) expect(modelUrl(model)).toMatch(/^\/upscale\//);
    expect(SERVED_MODELS).toHaveLength(4);
  });
});

describe("the backend", () => {
  const starts = (working: BackendName[]) => {
    const asked: BackendName[] = [];
    const start = async (name: BackendName) => {
      asked.push(name);
      return working.includes(name);
    };
    return { asked, start };
  };

  it("is WebGPU where it starts, and nothing else is tried", async () => {
    const { asked, start } = starts(["webgpu", "webgl", "wasm"]);
    expect(await chooseBackend(start)).toBe("webgpu");
    expect(asked).toEqual(["webgpu"]);
  });

  it("tells a WebGL drawn in software by its renderer's name", () => {
    expect(isSoftwareRenderer("ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)")).toBe(
      true,
    );
    expect(isSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)")).toBe(true);
    expect(isSoftwareRenderer("ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)")).toBe(false);
    expect(isSoftwareRenderer("Apple M2")).toBe(false);
  });

  it("falls back to WebGL, then WASM, then WebGL in software", async () => {
    expect(BACKEND_ORDER).toEqual(["webgpu", "webgl", "wasm", "webgl-software"]);
    const soft = starts(["webgl-software"]);
    expect(await chooseBackend(soft.start)).toBe("webgl-software");
    expect(soft.asked).toEqual(["webgpu", "webgl", "wasm", "webgl-software"]);
    const gl = starts(["webgl", "wasm"]);
    expect(await chooseBackend(gl.start)).toBe("webgl");
    expect(gl.asked).toEqual(["webgpu", "webgl"]);
    const wasm = starts(["wasm"]);
    expect(await chooseBackend(wasm.start)).toBe("wasm");
    expect(wasm.asked).toEqual(["webgpu", "webgl", "wasm"]);
  });

  it("treats a backend whose start throws as one that did not start", async () => {
    const start = async (name: BackendName) => {
      if (name === "webgpu") throw new Error("adapter lost");
      return name === "webgl";
    };
    expect(await chooseBackend(start)).toBe("webgl");
  });

  it("is null when none starts, and only the one asked for is tried when one is", async () => {
    expect(await chooseBackend(starts([]).start)).toBeNull();
    const only = starts(["webgpu", "webgl", "wasm"]);
    expect(await chooseBackend(only.start, "wasm")).toBe("wasm");
    expect(only.asked).toEqual(["wasm"]);
  });
});
