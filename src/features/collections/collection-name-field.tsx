// A collection's name field. Its limit (COLLECTION_NAME_MAX characters, as the server counts them) is checked
// on save, which says what is wrong: an input's maxLength counts UTF-16 units and would cut an emoji in two.
import { LabelledField } from "../../ui/labelled-field";

export function CollectionNameField(props: { label?: string; value: string; onChange: (v: string) => void }) {
  return (
    <LabelledField label={props.label ?? "Name"}>
      <input
        type="text"
        className="input w-full"
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </LabelledField>
  );
}
