// The page's one Dexie instance. Modules that need it import this file, which keeps Dexie out of
// the first page load until something actually reads or writes local records.
import { Dexie, type EntityTable, type Table } from "dexie";
import {
  DB_NAME,
  defineSchema,
  type CollectionItemRecord,
  type CollectionRecord,
  type CustomStyleRecord,
  type GenerationRecord,
  type ImageRecord,
  type ImageUseRecord,
  type LimitsRecord,
  type MetaRecord,
  type OutboxEntry,
  type PreferencesRecord,
  type PromptHistoryRecord,
  type TaskRecord,
} from "./schema";

export type AppDb = Dexie & {
  generations: EntityTable<GenerationRecord, "id">;
  images: EntityTable<ImageRecord, "id">;
  imageUse: EntityTable<ImageUseRecord, "id">;
  tasks: EntityTable<TaskRecord, "id">;
  outbox: EntityTable<OutboxEntry, "seq">;
  promptHistory: EntityTable<PromptHistoryRecord, "id">;
  preferences: EntityTable<PreferencesRecord, "userId">;
  limits: EntityTable<LimitsRecord, "userId">;
  meta: EntityTable<MetaRecord, "key">;
  customStyles: EntityTable<CustomStyleRecord, "id">;
  collections: EntityTable<CollectionRecord, "id">;
  collectionItems: Table<CollectionItemRecord, [string, string]>;
};

export function openAppDb(name: string = DB_NAME): AppDb {
  const db = new Dexie(name) as AppDb;
  defineSchema(db);
  return db;
}

export const db: AppDb = openAppDb();
