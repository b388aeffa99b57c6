// An in-memory AccountStore with the platform's semantics: Auth knows tokens of live accounts and
// still recognises genuine tokens of deleted ones (user_not_found), Storage lists one folder level
// (sub-folders as names) at most `limit` entries at a time and removes only what exists, and deleting
// the auth user takes every row keyed by the user (the foreign keys' cascade).
import { type AppError, appError, fail, ok } from "../../../supabase/functions/_shared/errors.ts";
import type { AccountStore, FolderPage } from "../../../supabase/functions/delete-account/account-store.ts";

export class FakeAccounts implements AccountStore {
  /** Access token -> user id, for every token ever issued (deleted accounts included). */
  tokens = new Map<string, string>();
  users = new Set<string>();
  /** Rows of every user-keyed table, as [table, user id]. */
  rows: Array<{ table: string; userId: string }> = [];
  objects = new Set<string>();
  calls: string[] = [];
  /** Makes the named method fail once per queued error. */
  failures = new Map<keyof AccountStore, AppError[]>();
  /** Runs after each listing, e.g. to store an image as a generation in flight would. */
  afterList: ((folder: string) => void) | null = null;

  addUser(images: string[] = []): { id: string; jwt: string } {
    const id = crypto.randomUUID();
    const jwt = `jwt-${id}`;
    this.tokens.set(jwt, id);
    this.users.add(id);
    for (const table of ["generations", "user_preferences", "user_daily_limits", "app_events", "web_vitals"]) {
      this.rows.push({ table, userId: id });
    }
    for (const name of images) this.objects.add(`${id}/${name}`);
    return { id, jwt };
  }

  failOnce(method: keyof AccountStore, error: AppError = appError("server_error", { detail: `${method} down` })) {
    this.failures.set(method, [...(this.failures.get(method) ?? []), error]);
  }

  private failure(method: keyof AccountStore): AppError | null {
    this.calls.push(method);
    const queued = this.failures.get(method);
    return queued?.shift() ?? null;
  }

  rowsOf(userId: string): string[] {
    return this.rows.filter((r) => r.userId === userId).map((r) => r.table);
  }

  objectsOf(userId: string): string[] {
    return [...this.objects].filter((p) => p.startsWith(`${userId}/`)).sort();
  }

  identify(jwt: string) {
    const e = this.failure("identify");
    if (e) return Promise.resolve(fail(e));
    const id = this.tokens.get(jwt);
    if (!id) return Promise.resolve(fail(appError("auth_required")));
    return Promise.resolve(ok({ id, exists: this.users.has(id) }));
  }

  deleteGenerations(userId: string) {
    const e = this.failure("deleteGenerations");
    if (e) return Promise.resolve(fail(e));
    this.rows = this.rows.filter((r) => !(r.userId === userId && r.table === "generations"));
    return Promise.resolve(ok(undefined));
  }

  listFolder(folder: string, limit: number) {
    const e = this.failure("listFolder");
    if (e) return Promise.resolve(fail<FolderPage>(e));
    const base = `${folder}/`;
    const files: string[] = [];
    const folders = new Set<string>();
    for (const path of [...this.objects].sort()) {
      if (!path.startsWith(base)) continue;
      const rest = path.slice(base.length);
      const slash = rest.indexOf("/");
      if (slash < 0) files.push(rest);
      else folders.add(rest.slice(0, slash));
    }
    // Folders first, as Storage lists them, then cut at the limit.
    const entries = [
      ...[...folders].map((name) => ({ name, folder: true })),
      ...files.map((name) => ({ name, folder: false })),
    ];
    const page = entries.slice(0, limit);
    this.afterList?.(folder);
    return Promise.resolve(
      ok({
        files: page.filter((x) => !x.folder).map((x) => x.name),
        folders: page.filter((x) => x.folder).map((x) => x.name),
      }),
    );
  }

  removeObjects(paths: string[]) {
    const e = this.failure("removeObjects");
    if (e) return Promise.resolve(fail<number>(e));
    let n = 0;
    for (const p of paths) if (this.objects.delete(p)) n++;
    return Promise.resolve(ok(n));
  }

  deleteUser(userId: string) {
    const e = this.failure("deleteUser");
    if (e) return Promise.resolve(fail<{ existed: boolean }>(e));
    const existed = this.users.delete(userId);
    this.rows = this.rows.filter((r) => r.userId !== userId);
    return Promise.resolve(ok({ existed }));
  }
}
