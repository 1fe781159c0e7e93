import { useRouteLoaderData } from "react-router";
import type { SessionUser } from "#core/session-user.ts";

interface RootData {
  user: SessionUser | null;
}

/** The signed-in user, or null for a visitor. Read from the root loader. */
export function useOptionalUser(): SessionUser | null {
  return useRouteLoaderData<RootData>("root")?.user ?? null;
}
