/**
 * Google, GitHub and LinkedIn sign-in through Better Auth's generic OAuth plugin, so that each
 * provider's endpoints can be replaced by an OpenID Connect discovery document (a local OIDC
 * server in tests). Only providers with a client id and secret are enabled.
 */
import type { GenericOAuthConfig } from "better-auth/plugins";
import type { Config, OAuthProviderId } from "../config.ts";

export const PROVIDER_NAMES: Record<OAuthProviderId, string> = {
  google: "Google",
  github: "GitHub",
  linkedin: "LinkedIn",
};

const OIDC_DISCOVERY: Partial<Record<OAuthProviderId, string>> = {
  google: "https://accounts.google.com/.well-known/openid-configuration",
  linkedin: "https://www.linkedin.com/oauth/.well-known/openid-configuration",
};

export function oauthProviderConfigs(config: Config): GenericOAuthConfig[] {
  const providers: GenericOAuthConfig[] = [];
  for (const [id, settings] of Object.entries(config.oauth) as Array<[OAuthProviderId, NonNullable<Config["oauth"][OAuthProviderId]>]>) {
    const base = { providerId: id, clientId: settings.clientId, clientSecret: settings.clientSecret, pkce: true };
    const discoveryUrl = settings.discoveryUrl ?? OIDC_DISCOVERY[id];
    if (discoveryUrl) {
      providers.push({ ...base, discoveryUrl, scopes: ["openid", "email", "profile"] });
    } else {
      // GitHub is plain OAuth 2.0: its profile and e-mail come from its REST API.
      providers.push({
        ...base,
        authorizationUrl: "https://github.com/login/oauth/authorize",
        tokenUrl: "https://github.com/login/oauth/access_token",
        scopes: ["read:user", "user:email"],
        getUserInfo: githubUserInfo,
      });
    }
  }
  return providers;
}

async function githubUserInfo(tokens: { accessToken?: string }) {
  const headers = { authorization: `Bearer ${tokens.accessToken}`, "user-agent": "digs-and-gigs" };
  const profileResponse = await fetch("https://api.github.com/user", { headers });
  if (!profileResponse.ok) return null;
  const profile = (await profileResponse.json()) as { id: number; name?: string; login: string; email?: string; avatar_url?: string };
  const emailsResponse = await fetch("https://api.github.com/user/emails", { headers });
  const emails = emailsResponse.ok
    ? ((await emailsResponse.json()) as Array<{ email: string; primary: boolean; verified: boolean }>)
    : [];
  const primary = emails.find((e) => e.primary) ?? emails[0];
  const email = profile.email ?? primary?.email;
  if (!email) return null;
  return {
    id: String(profile.id),
    name: profile.name || profile.login,
    email,
    emailVerified: emails.find((e) => e.email === email)?.verified ?? false,
    image: profile.avatar_url,
  };
}
