/**
 * The app a security test file runs against, opened in its `beforeAll` and closed in its
 * `afterAll`: a fresh in-process app (tests/support/app.ts) with `env`; with Google sign-in
 * through a local OpenID Connect provider when `signInProvider` (so that Better Auth's social
 * endpoints are on and answer as they would in production); and with the seeded world of
 * world.ts from `openSecurityWorld`.
 */
import { createTestApp, type TestApp } from "../support/app.ts";
import { startOidcProvider } from "../support/oidc.ts";
import { createWorld, type World } from "./world.ts";

/**
 * The world's setup (dozens of accounts, gigs, purchases, threads through the real operations)
 * takes a minute on a quiet machine and more on a busy one: its `beforeAll` waits this long, so
 * that a slow machine fails a test, not the whole file's setup.
 */
export const WORLD_SETUP_MS = 300_000;

export type OidcProvider = Awaited<ReturnType<typeof startOidcProvider>>;

interface Options<P extends boolean> {
  signInProvider?: P;
  env?: Record<string, string>;
}

export type SecurityApp<P extends boolean = false> = {
  app: TestApp;
  /** Closes the app, then stops the sign-in provider. */
  close(): Promise<void>;
} & (P extends true ? { oidc: OidcProvider } : unknown);

export type SecurityWorld<P extends boolean = false> = SecurityApp<P> & { world: World };

export async function openSecurityApp<P extends boolean = false>(options: Options<P> = {}): Promise<SecurityApp<P>> {
  const oidc = options.signInProvider ? await startOidcProvider() : undefined;
  const google: Record<string, string> = oidc
    ? { GOOGLE_CLIENT_ID: "dg-google", GOOGLE_CLIENT_SECRET: "dg-google-secret", GOOGLE_DISCOVERY_URL: oidc.discoveryUrl }
    : {};
  let app: TestApp;
  try {
    // The world's push devices are at push.example.test (world.ts), a name that never resolves:
    // taken as a push service here, and no push ever leaves the machine.
    app = await createTestApp({ PUSH_SERVICE_TEST_HOSTS: "push.example.test", ...google, ...options.env });
  } catch (error) {
    await oidc?.stop();
    throw error;
  }
  const close = async () => {
    await app.close();
    await oidc?.stop();
  };
  return { app, oidc, close } as SecurityApp<P>;
}

export async function openSecurityWorld<P extends boolean = false>(options: Options<P> = {}): Promise<SecurityWorld<P>> {
  const opened = await openSecurityApp(options);
  try {
    return { ...opened, world: await createWorld(opened.app) };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
