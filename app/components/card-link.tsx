import type { ReactNode } from "react";
import { Link } from "#app/components/link.tsx";

/** A card's title link whose click area covers the whole card (the card must be `relative`). */
export function CardLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="underline-offset-4 after:absolute after:inset-0 hover:underline">
      {children}
    </Link>
  );
}
