// What GoTrue answers for the sign-in methods a hosted project has off until someone turns them on, and
// the local backend does not serve at all: SAML single sign-on (/sso), manual identity linking
// (/user/identities), Web3 sign-in and ID-token sign-in with an external provider (/token grants
// web3 and id_token). Each answers with GoTrue's status, code and message for the disabled feature, in
// GoTrue's order (an endpoint behind authentication asks for it first).
import { json } from "../http.ts";
import { answer, type Endpoint } from "./context.ts";
import { type JsonObject, refuse, stringFields } from "./responses.ts";
import { authenticate } from "./sessions.ts";

/** /sso and /sso/saml/*: GoTrue's requireSAMLEnabled. */
export const samlDisabled: Endpoint = () =>
  Promise.resolve(answer(refuse(404, "saml_provider_disabled", "SAML 2.0 is disabled")));

/** GET /user/identities/authorize and DELETE /user/identities/{id}: authentication, then requireManualLinkingEnabled. */
export const manualLinkingDisabled: Endpoint = async (actx, req) => {
  const caller = await authenticate(actx, req);
  if (!caller.ok) return answer(caller);
  return answer(refuse(404, "manual_linking_disabled", "Manual linking is disabled"));
};

/** grant_type=web3: neither chain is enabled. */
export function web3Grant(): Response {
  return answer(refuse(422, "web3_provider_disabled", "Web3 provider is disabled"));
}

/** The fixed issuer of each external provider GoTrue accepts ID tokens from without reading the token. */
const ISSUERS: Record<string, string> = {
  google: "https://accounts.google.com",
  facebook: "https://www.facebook.com",
  kakao: "https://kauth.kakao.com",
  vercel_marketplace: "https://marketplace.vercel.com",
  keycloak: "",
};

/** GoTrue's OAuth-style error body, which ID-token sign-in answers for missing parameters. */
function oauthError(description: string): Response {
  return json({ error: "invalid request", error_description: description }, 400);
}

/** The `iss` claim of an unverified JWT, or null when it is not one. */
function unverifiedIssuer(token: string): string | null {
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    return typeof payload?.iss === "string" ? payload.iss : null;
  } catch {
    return null;
  }
}

/** grant_type=id_token: GoTrue's checks up to finding the provider, which is never enabled here. */
export function idTokenGrant(body: JsonObject): Response {
  const fields = stringFields(body, "id_token", "provider", "client_id", "issuer");
  if (!fields.ok) return answer(fields);
  const { id_token: idToken, provider = "", client_id: clientId, issuer } = fields.value;
  if (!idToken) return oauthError("id_token required");
  if (!provider && (!clientId || !issuer)) return oauthError("provider or client_id and issuer required");
  const disabled = (iss: string) =>
    answer(refuse(400, "provider_disabled", `Provider (issuer ${JSON.stringify(iss)}) is not enabled`));
  if (provider === "apple" || provider === "azure") {
    const detected = unverifiedIssuer(idToken);
    const name = provider === "apple" ? "Apple" : "Azure";
    if (!detected) {
      return answer(refuse(400, "validation_failed", `Unable to detect issuer in ID token for ${name} provider`));
    }
    return disabled(detected);
  }
  if (Object.hasOwn(ISSUERS, provider)) return disabled(ISSUERS[provider]);
  const known = Object.entries(ISSUERS).find(([, iss]) => iss !== "" && iss === issuer);
  if (known) return disabled(known[1]);
  return answer(refuse(400, "validation_failed", `Custom OIDC provider ${JSON.stringify(provider)} not allowed`));
}
