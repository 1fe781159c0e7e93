import { useRouteLoaderData } from "react-router";
import type { SessionUser } from "#core/session-user.ts";

interface RootData {
  user: SessionUser | null;
  myProfileId: string | null;
}

/** The signed-in user, or null for a visitor. Read from the root loader. */
export function useOptionalUser(): SessionUser | null {
  return useRouteLoaderData<RootData>("root")?.user ?? null;
}

/** The signed-in digger's own profile id, or null (no profile yet, a consumer, a visitor). */
export function useMyProfileId(): string | null {
  return useRouteLoaderData<RootData>("root")?.myProfileId ?? null;
}
