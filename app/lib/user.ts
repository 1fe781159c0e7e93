import { useRouteLoaderData } from "react-router";
import type { SessionUser } from "#core/session-user.ts";

interface RootData {
  user: SessionUser | null;
  myProfileId: string | null;
  myArea?: string | null;
  unreadThreads?: number;
}

/** The signed-in user, or null for a visitor. Read from the root loader. */
export function useOptionalUser(): SessionUser | null {
  return useRouteLoaderData<RootData>("root")?.user ?? null;
}

/** The signed-in digger's own profile id, or null (no profile yet, a client, a visitor). */
export function useMyProfileId(): string | null {
  return useRouteLoaderData<RootData>("root")?.myProfileId ?? null;
}

/** How many of the signed-in user's threads are unread (the top bar's Messages), from the root loader's one count query. */
export function useUnreadThreads(): number {
  return useRouteLoaderData<RootData>("root")?.unreadThreads ?? 0;
}

/** The signed-in digger's own area (their profile's city), or null: their Browse Gigs link filters by it. */
export function useMyArea(): string | null {
  return useRouteLoaderData<RootData>("root")?.myArea ?? null;
}
