// The QR code of a TOTP enrolment's otpauth:// URI, drawn as SVG as GoTrue answers it. The symbol comes
// from the `qrcode` package (byte mode, error correction level H, the smallest version that holds the text,
// and the mask with the lowest penalty score); this module only draws its modules.
import QRCode from "npm:qrcode@1.5.4";

/** The symbol's modules, row by row (true: dark), with the given mask pattern (0-7) or the best one. */
export function qrMatrix(text: string, mask?: number): boolean[][] {
  const { modules } = QRCode.create([{ data: text, mode: "byte" }], {
    errorCorrectionLevel: "H",
    maskPattern: mask,
  });
  const { size, data } = modules as { size: number; data: Uint8Array };
  return Array.from({ length: size }, (_, r) => Array.from(data.subarray(r * size, (r + 1) * size), (v) => v === 1));
}

export function qrSvg(text: string): string {
  const m = qrMatrix(text);
  const unit = 3, quiet = 4;
  const side = (m.length + quiet * 2) * unit;
  let path = "";
  m.forEach((row, r) =>
    row.forEach((on, c) => {
      if (on) path += `M${(c + quiet) * unit} ${(r + quiet) * unit}h${unit}v${unit}h-${unit}z`;
    })
  );
  // No "#" and no line breaks: supabase-js puts the document as it is into a data: URI for an <img>.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">` +
    `<rect width="${side}" height="${side}" fill="white"/><path fill="black" d="${path}"/></svg>`;
}
