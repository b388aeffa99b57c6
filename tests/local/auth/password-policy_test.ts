// The password policy as GoTrue applies it: the minimum from config.toml's [auth] section (6 when
// unset, and never less), counted in bytes of UTF-8; the 72-byte ceiling.
import assert from "node:assert/strict";
import { passwordTooLong, passwordWeakness } from "../../../supabase/local/auth/passwords.ts";
import { HOSTED_MIN_PASSWORD_LENGTH, loadConfig } from "../../../supabase/local/config.ts";

Deno.test("reads [auth] minimum_password_length, GoTrue's 6 when unset or set lower", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pc-passwords-" });
  try {
    const env = (vars: Record<string, string>) => (name: string) => ({ DATA_DIR: dir, ...vars })[name];
    assert.equal((await loadConfig(env({}))).authMinPasswordLength, 8, "the project's config.toml sets 8");
    const at = async (text: string) => {
      await Deno.writeTextFile(`${dir}/config.toml`, text);
      return (await loadConfig(env({ SUPABASE_CONFIG: `${dir}/config.toml` }))).authMinPasswordLength;
    };
    assert.equal(await at("[auth]\nenabled = true\n"), HOSTED_MIN_PASSWORD_LENGTH);
    assert.equal(await at("[auth]\nminimum_password_length = 4\n"), 6);
    assert.equal(await at("[auth]\nminimum_password_length = 12 # long\n"), 12);
    // Another section's setting of the same name is not the auth one.
    assert.equal(await at("[auth.email]\nminimum_password_length = 12\n"), 6);
    assert.equal(
      (await loadConfig(env({ SUPABASE_CONFIG: `${dir}/absent.toml` }))).authMinPasswordLength,
      HOSTED_MIN_PASSWORD_LENGTH,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("counts bytes of UTF-8, as GoTrue does", () => {
  assert.deepEqual(passwordWeakness("horse42", 8), {
    reasons: ["length"],
    message: "Password should be at least 8 characters.",
  });
  assert.equal(passwordWeakness("horse-42", 8), null);
  assert.equal(passwordWeakness("éééé", 8), null); // 4 characters, 8 bytes
  assert.equal(passwordTooLong("é".repeat(36)), false);
  assert.equal(passwordTooLong("é".repeat(36) + "x"), true);
});

Deno.test("the app's forms state and check the minimum config.toml sets", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pc-passwords-" });
  const { authMinPasswordLength } = await loadConfig((name) => ({ DATA_DIR: dir })[name]);
  await Deno.remove(dir, { recursive: true });
  const constant = async (file: string, name: string) =>
    Number(new RegExp(`${name} = (\\d+);`).exec(await Deno.readTextFile(file))?.[1]);
  assert.equal(await constant("src/features/auth/auth-fields.tsx", "MIN_PASSWORD_LENGTH"), authMinPasswordLength);
  assert.equal(
    await constant("src/features/settings/change-password-form.tsx", "PASSWORD_MIN_CHARS"),
    authMinPasswordLength,
  );
});
