// What each engine does with a reference image, in the words the tutorials, the advanced options page and
// the guide share. It follows the server's adapters (supabase/functions/_shared/providers): the built-in
// renderer borrows palette and layout; of the AI engines, some start from the picture and some ignore it.
export const REFERENCE_BY_ENGINE =
  "The built-in renderer takes the reference's palette and layout. Of the AI engines an operator can connect, Runware, Replicate's FLUX Dev, FLUX 1.1 Pro and Nano Banana, Black Forest Labs, Google Gemini and a self-hosted AUTOMATIC1111/Forge or ComfyUI server start from it; Replicate's FLUX Schnell (Standard quality), fal and OpenAI-style image APIs ignore it.";
