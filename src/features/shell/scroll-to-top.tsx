// The home page's scroll-to-top button, shown after 400 px of scroll (docs/spec.md §9).
import { useEffect, useState } from "react";
import { Icon } from "../../ui/icons";

export const SCROLL_TO_TOP_AFTER_PX = 400;

export function ScrollToTop() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TO_TOP_AFTER_PX);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      className="btn btn-circle btn-primary fixed right-5 bottom-5 z-40 shadow-lg"
      aria-label="Scroll to top"
      onClick={() => {
        window.scrollTo({ top: 0, behavior: "smooth" });
        document.getElementById("main")?.focus({ preventScroll: true });
      }}
    >
      <Icon name="arrowUp" />
    </button>
  );
}
