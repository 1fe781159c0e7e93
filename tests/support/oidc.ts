/**
 * A local OpenID Connect provider (oauth2-mock-server) standing in for Google, GitHub or
 * LinkedIn. Each sign-in returns the identity set with `nextIdentity`.
 */
import { OAuth2Server } from "oauth2-mock-server";

export interface Identity {
  sub: string;
  email: string;
  name: string;
  /** The provider's `email_verified` claim (default true). */
  emailVerified?: boolean;
}

export async function startOidcProvider() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  let identity: Identity = { sub: "nobody", email: "nobody@example.com", name: "Nobody" };
  server.service.on("beforeTokenSigning", (token) => {
    Object.assign(token.payload, { sub: identity.sub, email: identity.email, email_verified: identity.emailVerified ?? true, name: identity.name });
  });
  server.service.on("beforeUserinfo", (response) => {
    response.body = { sub: identity.sub, email: identity.email, email_verified: identity.emailVerified ?? true, name: identity.name };
  });
  const issuer = server.issuer.url!;
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    nextIdentity(next: Identity) {
      identity = next;
    },
    stop: () => server.stop(),
  };
}
