// A search box: the magnifier, a hidden label for readers, and the input (History's prompt search, a
// collection's words filter).
import { Icon } from "./icons";

export function SearchField(props: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="input w-full">
      <Icon name="search" className="size-4 opacity-70" />
      <span className="sr-only">{props.label}</span>
      <input
        type="search"
        placeholder={props.placeholder}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
