import { useSnapshot } from "valtio";
import { Icon } from "../../ui/icons";
import { toggleTheme, ui } from "../../state/ui-store";

export function ThemeToggle() {
  const { theme } = useSnapshot(ui);
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="btn btn-ghost btn-circle"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => toggleTheme()}
    >
      <Icon name={theme === "dark" ? "sun" : "moon"} />
    </button>
  );
}
