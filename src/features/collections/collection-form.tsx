// Making a collection, renaming one, or editing a smart collection's filter: one form in a modal. A smart
// collection's filter has every field of History's filters, plus its words, the engine and "made in the
// last N days"; the vocabulary's check says what is wrong before anything is written.
import { useState, type FormEvent } from "react";
import {
  COLLECTION_WITHIN_DAYS_MAX,
  validateCollectionFilter,
  validateCollectionName,
  type CollectionFilter,
} from "#shared/vocabulary/collections.ts";
import { saveCollection } from "../../db/collections";
import type { CollectionRecord } from "../../db/schema";
import { providerName } from "../../lib/model-names";
import { useEngines } from "../../sync/use-engines";
import { LabelledField, SelectField } from "../../ui/labelled-field";
import { Modal } from "../../ui/modal";
import { Spinner } from "../../ui/spinner";
import { CollectionNameField } from "./collection-name-field";
import type { LibraryParts } from "./library-parts";
import { EMPTY_SMART_FILTER, toCollectionFilter, toSmartFilterForm, type SmartFilterForm } from "./smart-filter";

type Props = {
  userId: string;
  /** The collection renamed or edited; none to make a new one. */
  collection?: CollectionRecord;
  /** A new collection's kind (an existing one keeps its own). */
  smart: boolean;
  /** Whether the filter fields are shown (a rename shows the name alone). */
  withFilter: boolean;
  FilterFields: LibraryParts["FilterFields"];
  onClose: () => void;
  onSaved?: (collection: CollectionRecord) => void;
};

function SmartFields(props: {
  value: SmartFilterForm;
  onChange: (next: SmartFilterForm) => void;
  FilterFields: LibraryParts["FilterFields"];
}) {
  const { value, onChange, FilterFields } = props;
  const engines = useEngines()?.available ?? [];
  const offered = value.engine === "any" || engines.includes(value.engine) ? engines : [...engines, value.engine];
  return (
    <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      <legend className="mb-2 text-sm font-medium">Show the images that match all of these</legend>
      <div className="col-span-full">
        <LabelledField label="Words of the prompt">
          <input
            type="text"
            className="input input-sm w-full"
            value={value.text}
            onChange={(e) => onChange({ ...value, text: e.target.value })}
          />
        </LabelledField>
      </div>
      <FilterFields value={value} onChange={(next) => onChange({ ...value, ...next })} />
      <SelectField
        label="Engine"
        size="sm"
        value={value.engine}
        options={[{ value: "any", label: "Any" }, ...offered.map((p) => ({ value: p, label: providerName(p) }))]}
        onChange={(engine) => onChange({ ...value, engine })}
      />
      <LabelledField label="Made in the last (days)">
        <input
          type="number"
          inputMode="numeric"
          min={1}
          max={COLLECTION_WITHIN_DAYS_MAX}
          className="input input-sm w-full"
          value={value.withinDays}
          onChange={(e) => onChange({ ...value, withinDays: e.target.value })}
        />
      </LabelledField>
    </fieldset>
  );
}

export function CollectionForm(props: Props) {
  const { userId, collection, withFilter, FilterFields, onClose, onSaved } = props;
  const smart = collection ? collection.filter !== null : props.smart;
  const [name, setName] = useState(collection?.name ?? "");
  const [form, setForm] = useState<SmartFilterForm>(() =>
    collection?.filter ? toSmartFilterForm(collection.filter) : EMPTY_SMART_FILTER,
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const filter: CollectionFilter | null = smart ? toCollectionFilter(form) : null;
    const problem = validateCollectionName(name) ?? (filter ? validateCollectionFilter(filter) : null);
    if (problem) return setError(problem);
    setBusy(true);
    const result = await saveCollection(userId, { name, filter }, collection?.id);
    setBusy(false);
    if (!result.ok) return setError(result.message);
    onSaved?.(result.collection);
    onClose();
  };

  const title = collection
    ? withFilter
      ? "Edit filter"
      : "Rename collection"
    : smart
      ? "New smart collection"
      : "New collection";
  return (
    <Modal title={title} onClose={onClose} size={smart && withFilter ? "lg" : "md"}>
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <CollectionNameField value={name} onChange={setName} />
        {smart && withFilter && <SmartFields value={form} onChange={setForm} FilterFields={FilterFields} />}
        {error && (
          <div role="alert" className="alert alert-error alert-soft text-base-content">
            {error}
          </div>
        )}
        <div className="modal-action">
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy && <Spinner size="xs" />}
            {collection ? "Save" : "Create"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
