import * as React from "react";
import { ChevronDown } from "#app/components/icons.tsx";

import { cn } from "#app/lib/cn.ts";

/**
 * A styled native <select>. Works in plain HTML forms (no JS needed);
 * all props (name, value, defaultValue, required, onChange, ...) are forwarded.
 * Use `wrapperClassName` to size/position the wrapper (e.g. "w-full").
 */
export function NativeSelect({
  className,
  wrapperClassName,
  children,
  ...props
}: React.ComponentProps<"select"> & { wrapperClassName?: string }) {
  return (
    <div
      data-slot="native-select-wrapper"
      className={cn("relative w-full", wrapperClassName)}
    >
      <select
        data-slot="native-select"
        className={cn("native-select", props.multiple && "h-auto py-2 pr-3", className)}
        {...props}
      >
        {children}
      </select>
      {!props.multiple && (
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
      )}
    </div>
  );
}
