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
