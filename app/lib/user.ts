import { useRouteLoaderData } from "react-router";

/** The signed-in user as every page may see it (never anything more private). */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  userType: "consumer" | "digger";
  twoFactorEnabled: boolean;
}

interface RootData {
  user: SessionUser | null;
}

/** The signed-in user, or null for a visitor. Read from the root loader. */
export function useOptionalUser(): SessionUser | null {
  return useRouteLoaderData<RootData>("root")?.user ?? null;
}
