// "Install app" in the top bar, shown only while the browser offers installation.
import { Icon } from "../../ui/icons";
import { promptInstall, useCanInstall } from "./install-prompt";

export function InstallButton() {
  const available = useCanInstall();
  if (!available) return null;
  return (
    <button type="button" className="btn btn-sm btn-outline btn-primary" onClick={() => void promptInstall()}>
      <Icon name="download" className="size-4" />
      <span className="sr-only sm:not-sr-only">Install app</span>
    </button>
  );
}
