import type * as React from "react";

import { cn } from "#app/lib/cn.ts";

/**
 * An on/off switch: WAI-ARIA's switch pattern, a button with `role="switch"` and `aria-checked`
 * (Space and Enter press it as any button; a <label> around it names it and presses it too),
 * with Radix's `data-state` for app.css. Its own rather than Radix's Switch: Radix's adds a hidden
 * checkbox for forms (ours send with a fetcher) and a context, a controllable state and a
 * measured size, about 25 µs a switch in a server render where My Gigs draws one a card
 * (docs/decisions/0090).
 */
export function Switch({
  checked,
  onCheckedChange,
  className,
  ...props
}: Omit<React.ComponentProps<"button">, "onClick" | "role" | "type" | "value"> & {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const state = checked ? "checked" : "unchecked";
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      data-slot="switch"
      className={cn("peer switch", className)}
      onClick={() => onCheckedChange(!checked)}
      {...props}
    >
      <span data-state={state} data-slot="switch-thumb" className="switch-thumb" />
    </button>
  );
}
