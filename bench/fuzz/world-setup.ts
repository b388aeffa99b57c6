// The run's world on a started backend: three accounts (two on the premium tier, so quota never ends a
// run, one on the free tier), four generation rows each with their stored images (some published), and
// hostile images stored under the first account's folder for the storage routes to read and render.
import { randomUUID } from "node:crypto";
import type { Backend } from "../../tests/support/backend.ts";
import { newUser, serviceClient } from "../../tests/support/clients.ts";
import { png } from "../../tests/support/png.ts";
import { seededRandom } from "../../tests/support/seeded-random.ts";
import { Rng } from "./grammar.ts";
import { fuzzImage } from "./images.ts";
import type { Account, StoredGeneration, World } from "./world.ts";

const ROWS_PER_ACCOUNT = 4;
const HOSTILE_OBJECTS = 12;
const PROMPTS = ["a quiet harbour at dawn", "neon city in the rain", "a cat on a castle wall", "sunset over the sea"];

export async function setUpWorld(b: Backend): Promise<World> {
  const server = serviceClient(b);
  const accounts: Account[] = [];
  const generations: StoredGeneration[] = [];
  for (let i = 0; i < 3; i++) {
    const user = await newUser(b, `fuzz${i}`);
    const { data } = await user.client.auth.getSession();
    const session = data.session!;
    accounts.push({
      id: user.id,
      email: user.email,
      password: user.password,
      token: session.access_token,
      refreshToken: session.refresh_token,
    });
    await user.client.rpc("get_my_limits");
    if (i < 2) {
      const raised = await server
        .from("user_daily_limits")
        .update({ subscription_tier: "premium" })
        .eq("user_id", user.id);
      if (raised.error) throw new Error(`raise tier: ${raised.error.message}`);
    }
    for (let k = 0; k < ROWS_PER_ACCOUNT; k++) {
      const id = randomUUID();
      const path = `${user.id}/${id}.png`;
      const up = await server.storage.from("generations").upload(path, png(16, 16), { contentType: "image/png" });
      if (up.error) throw new Error(`store image: ${up.error.message}`);
      const row = {
        id,
        user_id: user.id,
        prompt: PROMPTS[k],
        provider: "builtin",
        model: "procedural",
        image_path: path,
        is_public: k % 2 === 0,
      };
      const ins = await server.from("generations").insert(row);
      if (ins.error) throw new Error(`store row: ${ins.error.message}`);
      generations.push({ id, userId: user.id, path, isPublic: row.is_public });
    }
  }
  const hostileObjects: string[] = [];
  const r = new Rng(seededRandom(0));
  for (let k = 0; k < HOSTILE_OBJECTS; k++) {
    const image = fuzzImage(r);
    const path = `${accounts[0].id}/hostile-${k}.${image.mime.split("/")[1] ?? "bin"}`;
    // The bucket may refuse a type or size: what it refuses is simply not in the world.
    const up = await server.storage.from("generations").upload(path, image.bytes, { contentType: image.mime });
    if (!up.error) hostileObjects.push(path);
  }
  if (!hostileObjects.length) hostileObjects.push(generations[0].path);
  return { url: b.url, anonKey: b.anonKey, jwtSecret: b.jwtSecret, accounts, generations, hostileObjects };
}

/** Signs each account in again (its token would expire during a long run). */
export async function renewTokens(world: World): Promise<void> {
  for (const a of world.accounts) {
    const res = await fetch(`${world.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: world.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email: a.email, password: a.password }),
    });
    const body = (await res.json()) as { access_token?: string; refresh_token?: string };
    if (body.access_token) {
      a.token = body.access_token;
      a.refreshToken = body.refresh_token ?? a.refreshToken;
    }
  }
}
