import type { ReactNode } from "react";
import type { IconType } from "#app/components/icons.tsx";
import { cn } from "#app/lib/cn.ts";

export interface Fact {
  /** Read by screen readers; shown as `icon` when there is one. */
  label: string;
  value: string;
  icon?: IconType;
  /** The card's main fact (a gig's budget). */
  main?: boolean;
}

/** A card's facts (budget, timeline, ...) as a description list. */
export function FactList({ facts, className }: { facts: Fact[]; className?: string }) {
  return (
    <dl className={cn("text-sm", className)}>
      {facts.map(({ label, value, icon: Icon, main }) => (
        <div key={label} className={Icon ? "flex items-center gap-1.5" : undefined}>
          <dt>
            {Icon ? <Icon aria-hidden="true" className="size-4 text-muted-foreground" /> : null}
            <span className="sr-only">{label}</span>
          </dt>
          <dd className={main ? "font-medium" : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A fact written label over value, in a `<dl className="facts ...">` whose class styles its
 * parts (app.css, `.facts`): the fact writes no class of its own. A lead card shows up to seven
 * and My Leads 20 cards, and each class is an attribute React escapes and writes (issue 52). A
 * plain call, not a component: one fewer step a fact in each render.
 */
export function fact(label: string, value: ReactNode) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
