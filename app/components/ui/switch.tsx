import type { ComponentProps } from "react";
import { cn } from "#app/lib/cn.ts";

/**
 * An on/off switch: a button with the switch role, its state in `aria-checked` and `data-state`
 * (the styles' hook), as Radix's Switch drew it, without its providers and hidden form input
 * (no switch of ours sends a form field; issue 52: a list's cards each hold one). Space and Enter
 * press it, as any button.
 */
export function Switch({
  checked,
  onCheckedChange,
  className,
  onClick,
  ...props
}: Omit<ComponentProps<"button">, "value" | "role" | "type"> & { checked: boolean; onCheckedChange: (checked: boolean) => void }) {
  const state = checked ? "checked" : "unchecked";
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      data-slot="switch"
      className={cn("peer switch", className)}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) onCheckedChange(!checked);
      }}
      {...props}
    >
      <span data-state={state} data-slot="switch-thumb" className="switch-thumb" />
    </button>
  );
}
