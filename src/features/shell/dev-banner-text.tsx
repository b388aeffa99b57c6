// The development banner's words (dev-banner.tsx decides where it shows): loaded only on a host that
// shows it, so a production page's first load does not carry them.
export default function DevBannerText({ host, productionHost }: { host: string; productionHost: string }) {
  return (
    <section
      aria-label="Development mode"
      className="bg-warning px-4 py-1.5 text-center text-xs font-medium text-warning-content sm:text-sm"
    >
      Development mode: you are on <span className="font-semibold">{host}</span>
      {productionHost ? (
        <>
          , not <span className="font-semibold">{productionHost}</span>
        </>
      ) : null}
      . Data here is for trying things out.
    </section>
  );
}
